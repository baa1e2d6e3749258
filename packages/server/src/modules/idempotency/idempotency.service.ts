import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ONE_DAY_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { AppError, validationError } from '../../domain/errors';
import { claimKey, releaseKey, saveAnswer } from './idempotency.store';

/** The request header (IETF draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key's answer is kept: a client retries within minutes, never a day later. */
export const IDEMPOTENCY_TTL_MS = ONE_DAY_MS;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What the OpenAPI document says about the header on routes that honour it. */
export const IDEMPOTENCY_DOC =
  ' Send an `Idempotency-Key` header (1–255 visible ASCII characters, e.g. a UUID) to make a retry safe: ' +
  'the same key with the same request, by the same user in the same zone, within 24 hours, returns the ' +
  'first answer (header `Idempotent-Replayed: true`) instead of starting again. 409 `idempotency.in_progress` ' +
  'while the first request runs; 422 `idempotency.mismatch` when the key was used for another request.';

function inProgress(): AppError {
  return new AppError('idempotency.in_progress', { headers: { 'retry-after': '1' } });
}

export type Answer<T> = { status: number; body: T; replayed: boolean };

/**
 * Runs a state-changing request at most once per `Idempotency-Key` (per user and zone).
 * Without the header it simply runs. A request that fails (any error) frees its key, so a
 * retry runs it again; only answers that succeeded are replayed.
 * @throws AppError 400 malformed key, 409 `idempotency.in_progress`, 422 `idempotency.mismatch`.
 */
export async function idempotent<T>(
  ctx: AppContext,
  request: FastifyRequest,
  who: { userId: number; zoneId: number | undefined },
  run: () => Promise<{ status: number; body: T }>,
  /** The caller's permission check, made before a replay: an old answer is still a decision on the rights they have now. */
  authorizeReplay: () => Promise<unknown>,
): Promise<Answer<T>> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return { ...(await run()), replayed: false };
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !KEY_PATTERN.test(key)) {
    throw validationError({ 'Idempotency-Key': ['The Idempotency-Key must be 1 to 255 visible ASCII characters.'] });
  }
  const scope = { userId: who.userId, organizationId: who.zoneId ?? 0, key };
  const fingerprint = `${request.method} ${request.url.split('?')[0]} ${createHash('sha256')
    .update(JSON.stringify(request.body ?? null))
    .digest('base64url')
    .slice(0, 22)}`;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  let claim = await claimKey(ctx.db, scope, fingerprint, now, expiresAt);
  // The holder failed and freed the key between the two statements: claim it again.
  if (!claim.claimed && !claim.held) claim = await claimKey(ctx.db, scope, fingerprint, now, expiresAt);
  if (!claim.claimed) {
    const held = claim.held;
    if (!held) throw inProgress();
    if (held.request !== fingerprint) {
      throw new AppError('idempotency.mismatch');
    }
    if (held.statusCode === null) throw inProgress();
    await authorizeReplay();
    return { status: held.statusCode, body: held.body as T, replayed: true };
  }
  let answer: { status: number; body: T };
  try {
    answer = await run();
  } catch (err) {
    await releaseKey(ctx.db, scope);
    throw err;
  }
  await saveAnswer(ctx.db, scope, answer.status, answer.body);
  return { ...answer, replayed: false };
}
