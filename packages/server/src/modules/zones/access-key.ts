import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sha256Hex } from '../../domain/sha256';

/**
 * A zone's agent access key: agents present it to enrol. It is stored twice: as a SHA-256
 * hash to find the zone by key, and encrypted (AES-256-GCM under the server's secret key,
 * see secret-key.ts) so that administrators can read it again.
 */

const PREFIX = 'pwz_';
const VERSION = 'v1';

/** A new random key: `pwz_` and 43 base64url characters (256 bits). */
export function generateAccessKey(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** The stored lookup hash of a key (hex). */
export function hashAccessKey(key: string): string {
  return sha256Hex(key);
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url; a fresh 96-bit IV per encryption. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plain text of {@link encryptSecret}'s output, or undefined when it was encrypted under another key or altered. */
export function decryptSecret(sealed: string, key: Buffer): string | undefined {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
