/**
 * One interface per operating system (ports and adapters): the run loop, the executor and
 * the inventory only talk to a `Platform`, so tests swap in a fake one.
 */
import type { ProcessSpec } from '../jobs/process.js';
import type { Notifier } from '../notify/notifier.js';
import type { DeviceStatus, OsFamily, Patch, SoftwareItem, SystemInfo } from '../protocol.js';

export type PackageAction =
  | { type: 'install_all' }
  | { type: 'install_updates'; names: string[] }
  | { type: 'install_package'; name: string; version?: string }
  | { type: 'remove_package'; name: string };

export type Platform = {
  readonly family: OsFamily;
  /** Stable identity of the machine (enrolling twice gives the same device). */
  machineId(): Promise<string>;
  system(): Promise<SystemInfo>;
  status(): Promise<DeviceStatus>;
  software(): Promise<SoftwareItem[]>;
  patches(): Promise<Patch[]>;
  /**
   * The package manager invocation for an action. With `simulate` it must not change the
   * machine (apt-get -s; on macOS and Windows a search that lists what would be installed).
   */
  packageCommand(action: PackageAction, options: { simulate: boolean }): ProcessSpec;
  scriptCommand(language: 'bash' | 'powershell', script: string): ProcessSpec;
  rebootCommand(delayS: number): ProcessSpec;
  /** Shows notices to the signed-in user (notify/); absent: the platform cannot, and says so. */
  notifier?: Notifier;
  /**
   * Where a remote-control session reaches the screen: a VNC server on loopback the agent
   * starts for the session (Linux: x11vnc on the user's display) or finds (macOS Screen
   * Sharing, a Windows VNC server), with how to stop it. Absent: remote control is not offered.
   */
  remoteDesktop?: () => Promise<{ port: number; stop(): Promise<void> }>;
  /**
   * What remote control still needs on this machine and the command that installs it (Linux:
   * x11vnc through apt or dnf), or null when it is ready. Absent: nothing is ever installed.
   */
  remoteDesktopSetup?: () => Promise<{ what: string; install: ProcessSpec } | null>;
};

/** Validates a package name or version before it reaches a command line. */
export function assertSafeToken(value: string, what: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9.+:~_@/-]*$/.test(value) || value.length > 256) {
    throw new Error(`Invalid ${what}: ${JSON.stringify(value)}`);
  }
  return value;
}
