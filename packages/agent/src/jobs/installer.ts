/**
 * Required-software installers uploaded to the server: an `install_package` command that
 * carries `args.installer` runs the policy's install command on the downloaded file instead
 * of the package manager. The file goes to a private temporary folder, must match the size
 * and SHA-256 the command names (the server's answer alone is not trusted), and is removed
 * after the run whatever happened.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { CommandInstaller } from '@patchwell/core/agent/agent-protocol.schema';
import type { AgentApi } from '../api/client.js';
import type { Platform } from '../platform/platform.js';
import type { AgentCommand } from '../protocol.js';
import type { ProcessSpec } from './process.js';

/** What the command asks: the file and the command that installs it. */
export type InstallerJob = { installer: CommandInstaller; command: string };

/** The downloaded file did not match what the command names: it is never run. */
export class InstallerMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstallerMismatchError';
  }
}

/** The installer part of an `install_package`, or null when it installs through the package manager. */
export function installerJobOf(cmd: AgentCommand): InstallerJob | null {
  if (cmd.type !== 'install_package' || !cmd.args.installer) return null;
  if (!cmd.args.install_command?.trim())
    throw new Error('install_package with an installer needs args.install_command');
  return { installer: cmd.args.installer, command: cmd.args.install_command };
}

/** The install command as the platform runs scripts, with the file's path in `INSTALLER`. */
export function installerSpec(platform: Platform, job: InstallerJob, filePath: string): ProcessSpec {
  const spec = platform.scriptCommand(platform.family === 'windows' ? 'powershell' : 'bash', job.command);
  return { ...spec, env: { ...spec.env, INSTALLER: filePath } };
}

/** A file name safe on every OS that keeps the extension installers are recognised by (.msi, .pkg, .deb). */
function localName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const safe = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return safe.slice(-200) || 'installer';
}

export type DownloadedInstaller = { dir: string; filePath: string };

/**
 * Downloads the installer into a new private folder (mode 0700) and checks it. Stops as soon
 * as more bytes arrive than expected. On any failure the folder is removed before throwing.
 * @throws InstallerMismatchError when the size or SHA-256 differs from the command's.
 */
export async function downloadInstaller(
  api: AgentApi,
  installer: CommandInstaller,
  options: { signal?: AbortSignal; tmpRoot?: string } = {},
): Promise<DownloadedInstaller> {
  const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'patchwell-installer-'));
  const filePath = path.join(dir, localName(installer.name));
  try {
    const download = await api.downloadInstaller(installer.id, options.signal);
    if (download.sizeBytes !== null && download.sizeBytes !== installer.size_bytes) {
      await download.body.cancel().catch(() => {});
      throw sizeMismatch(installer, download.sizeBytes);
    }
    const hash = createHash('sha256');
    let received = 0;
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > installer.size_bytes) return done(sizeMismatch(installer, received, true));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await pipeline(
      Readable.fromWeb(download.body as WebReadableStream<Uint8Array>),
      check,
      createWriteStream(filePath, { mode: 0o700 }),
      options.signal ? { signal: options.signal } : {},
    );
    if (received !== installer.size_bytes) throw sizeMismatch(installer, received);
    const sha256 = hash.digest('hex');
    if (sha256 !== installer.sha256) {
      throw new InstallerMismatchError(
        `The downloaded installer ${installer.name} does not match its checksum (SHA-256 ${sha256}, expected ${installer.sha256}); it was not run.`,
      );
    }
    return { dir, filePath };
  } catch (err) {
    await removeDownload(dir);
    throw err;
  }
}

function sizeMismatch(installer: CommandInstaller, got: number, atLeast = false): InstallerMismatchError {
  return new InstallerMismatchError(
    `The downloaded installer ${installer.name} is ${atLeast ? 'more than ' : ''}${got} bytes, expected ${installer.size_bytes}; it was not run.`,
  );
}

export async function removeDownload(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
