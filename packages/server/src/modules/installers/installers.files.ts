import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { copyFile, link, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config';

/**
 * Installer bytes on disk, content addressed per zone: `<root>/<zone id>/<sha256>`. The root
 * is `DATA_DIR/installers`; with `DATA_DIR=memory://` (tests, throw-away demos) a temporary
 * folder of this app, removed when it closes. Several server nodes must share this folder
 * (a common volume) for every node to serve every installer.
 */

const temporaryRoots = new WeakMap<Config, string>();

export function installersRoot(config: Config): string {
  if (config.dataDir !== 'memory://') return path.join(config.dataDir, 'installers');
  let dir = temporaryRoots.get(config);
  if (!dir) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'patchwell-installers-'));
    temporaryRoots.set(config, dir);
  }
  return dir;
}

/** Removes the temporary root of a `memory://` app (nothing for a real DATA_DIR). */
export async function removeTemporaryRoot(config: Config): Promise<void> {
  const dir = temporaryRoots.get(config);
  if (!dir) return;
  temporaryRoots.delete(config);
  await rm(dir, { recursive: true, force: true });
}

export function installerPath(config: Config, zoneId: number, sha256: string): string {
  return path.join(installersRoot(config), String(zoneId), sha256);
}

export type ReceivedFile = { tempPath: string; sha256: string; sizeBytes: number };

/**
 * Streams an upload to a temporary file of the root (so the final rename stays on one file
 * system), hashing it on the way. On any error the partial file is removed.
 */
export async function receiveFile(config: Config, source: Readable): Promise<ReceivedFile> {
  const dir = path.join(installersRoot(config), 'tmp');
  await mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `${randomUUID()}.part`);
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, measure, createWriteStream(tempPath, { mode: 0o600 }));
  } catch (err) {
    await discard(tempPath);
    throw err;
  }
  return { tempPath, sha256: hash.digest('hex'), sizeBytes };
}

/** Removes a temporary or stored file; a missing one is fine. */
export async function discard(filePath: string): Promise<void> {
  await unlink(filePath).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Moves a received file to its place in the zone's folder (the same bytes may already be there). */
export async function storeFile(config: Config, zoneId: number, received: ReceivedFile): Promise<void> {
  const target = installerPath(config, zoneId, received.sha256);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(received.tempPath, target);
}

/**
 * Puts a zone's file into another zone's folder: a hard link when the file system allows
 * (no bytes copied), else a copy through a temporary name so a half-copied file never
 * carries the final name.
 */
export async function copyToZone(config: Config, fromZoneId: number, toZoneId: number, sha256: string): Promise<void> {
  const source = installerPath(config, fromZoneId, sha256);
  const target = installerPath(config, toZoneId, sha256);
  await mkdir(path.dirname(target), { recursive: true });
  if (await exists(target)) return;
  try {
    await link(source, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
    const temp = `${target}.${randomUUID()}.part`;
    try {
      await copyFile(source, temp);
      await rename(temp, target);
    } finally {
      await discard(temp);
    }
  }
}

async function exists(filePath: string): Promise<boolean> {
  return stat(filePath).then(
    () => true,
    () => false,
  );
}

/** The stored file for reading, or undefined when it is missing on this node. */
export async function openStoredFile(
  config: Config,
  zoneId: number,
  sha256: string,
): Promise<{ stream: Readable; sizeBytes: number } | undefined> {
  const filePath = installerPath(config, zoneId, sha256);
  const info = await stat(filePath).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  return { stream: createReadStream(filePath), sizeBytes: info.size };
}
