import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';

const KEY_BYTES = 32;
export const SECRET_KEY_FILE = 'secret.key';

// One promise per key source, so concurrent first uses agree on one key. With
// `memory://` the key lives as long as the process, like the in-memory database.
const loaded = new Map<string, Promise<Buffer>>();

async function readOrCreateKeyFile(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  try {
    return decodeKeyFile(await readFile(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: if another process created the file meanwhile, keep theirs and read it.
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600); // the umask may have widened the mode
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return decodeKeyFile(await readFile(file, 'utf8'), file);
  }
}

function decodeKeyFile(text: string, file: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte base64 key.`);
  return key;
}

/**
 * The server's 32-byte secret key: PATCHWELL_SECRET_KEY when set; otherwise the key file
 * `DATA_DIR/secret.key`, created (mode 0600) on first use; with `DATA_DIR=memory://` a
 * random key kept in memory. Losing the key makes stored secrets unreadable (they can be
 * rotated), so back the file up with the data.
 */
export function secretKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Promise<Buffer> {
  if (config.secretKey) return Promise.resolve(config.secretKey);
  const source = config.dataDir;
  let key = loaded.get(source);
  if (!key) {
    key = source === 'memory://' ? Promise.resolve(randomBytes(KEY_BYTES)) : readOrCreateKeyFile(source);
    // A failed read (permissions) is retried on the next use instead of being cached.
    key.catch(() => loaded.delete(source));
    loaded.set(source, key);
  }
  return key;
}
