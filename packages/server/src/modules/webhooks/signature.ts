import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The deliveries' signature (docs/api/webhooks.md): `Patchwell-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. The timestamp is signed with the body, so a
 * receiver that refuses old timestamps refuses replays of a captured delivery.
 */

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureOf(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/** The header's value for `body` sent at `at`. */
export function signatureHeader(secret: string, at: Date, body: string): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${signatureOf(secret, t, body)}`;
}

/**
 * What a receiver does (and the tests): true when the header's `v1` matches the body and its
 * timestamp is within `toleranceS` of `now`.
 */
export function verifySignature(secret: string, header: string, body: string, now: Date, toleranceS = 300): boolean {
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isInteger(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now.getTime() / 1000 - t) > toleranceS) return false;
  return timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(signatureOf(secret, t, body), 'hex'));
}
