/** Picks the adapter for the operating system the agent runs on. */
import type { ProcessRunner } from '../jobs/process.js';
import { createLinuxPlatform } from './linux.js';
import { createMacPlatform } from './mac.js';
import type { Platform } from './platform.js';
import { createWindowsPlatform } from './windows.js';

export function currentPlatform(run?: ProcessRunner, platform: NodeJS.Platform = process.platform): Platform {
  switch (platform) {
    case 'darwin':
      return createMacPlatform(run);
    case 'win32':
      return createWindowsPlatform(run);
    default:
      return createLinuxPlatform(run);
  }
}
