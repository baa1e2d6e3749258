import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { MFA } from '@patchwell/core/auth/mfa.schema';
import { PRODUCT_NAME } from '@patchwell/core/constants';

/**
 * The codes of the second factor. Stored codes are keyed hashes (HMAC-SHA256 under the
 * server's secret key, bound to the user): a table leak reveals no code, and a 6-digit code
 * cannot be found by hashing a million candidates without the key.
 */
export function codeHash(key: Buffer, userId: number, code: string): string {
  return createHmac('sha256', key).update(`${userId}:${code}`).digest('hex');
}

/** A 6-digit e-mailed code (uniform, leading zeros kept). */
export function newEmailCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Ten recovery codes of 10 base32 characters (50 bits) each, shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: MFA.recoveryCodes }, () => {
    const chars = [...randomBytes(10)].map((b) => BASE32[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A typed code as the schema normalised it (no spaces or dashes, lower case): six digits, or not. */
export const isSixDigits = (code: string) => /^\d{6}$/.test(code);

/** A recovery code as stored: the normalised form of what was shown. */
export const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** A new TOTP secret (base32, 160 bits) and the `otpauth://` URI an authenticator app scans. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = generateSecret();
  return { secret, uri: totpUri(secret, email) };
}

export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: PRODUCT_NAME, label: email, secret });
}

/** The URI as a QR code, a PNG data URL drawn on the server (no canvas in the browser needed). */
export function qrDataUrl(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/**
 * Checks a TOTP code at `now`, one 30-second step either side (clocks drift), and only for a
 * step later than `afterStep` (the last one accepted: a code works once).
 * @returns the matching time step, or null.
 */
export async function checkTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!isSixDigits(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: 30,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
