import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { sweepMfa } from '../mfa/sweep.service';
import { ATTEMPT_RETENTION_MS } from './rate-limits.service';
import { deleteAttemptsBefore } from './rate-limits.store';
import { deleteExpiredSessions } from './sessions.store';
import { deleteExpiredTokens } from './user-tokens.store';

/** How often each node sweeps. Every node does; the deletes are idempotent, so no leader is needed. */
export const SWEEP_INTERVAL_MS = 10 * ONE_MINUTE_MS;

/** Rows per DELETE: small batches keep each statement's row locks short. */
export const SWEEP_BATCH_SIZE = 1000;

export type SweepResult = { sessions: number; attempts: number; links: number };

async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, batchSize: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(batchSize);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/**
 * Deletes expired sessions, expired mailed links (reset, verification) and counted attempts older than the longest rate-limit window,
 * as of `ctx.clock`. Safe to run on several nodes at once: each batch skips rows another
 * node holds, and what one node deleted the other simply does not find.
 */
export async function sweepExpired(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  options: { batchSize?: number } = {},
): Promise<SweepResult> {
  const batchSize = options.batchSize ?? SWEEP_BATCH_SIZE;
  const now = ctx.clock.now();
  const attemptsBefore = new Date(now.getTime() - ATTEMPT_RETENTION_MS);
  return {
    sessions: await deleteInBatches((limit) => deleteExpiredSessions(ctx.db, now, limit), batchSize),
    attempts: await deleteInBatches((limit) => deleteAttemptsBefore(ctx.db, attemptsBefore, limit), batchSize),
    links: await deleteInBatches((limit) => deleteExpiredTokens(ctx.db, now, limit), batchSize),
  };
}

/**
 * Runs {@link sweepExpired} every `intervalMs`. The timer does not keep the process alive,
 * and a failed sweep is logged and retried at the next tick.
 */
export function startSweeper(ctx: AppContext, intervalMs: number = SWEEP_INTERVAL_MS): PeriodicTask {
  return startPeriodic(
    ctx.logger,
    intervalMs,
    async () => {
      const swept = await sweepExpired(ctx);
      await sweepMfa(ctx);
      if (swept.sessions || swept.attempts || swept.links) ctx.logger.debug(swept, 'swept expired rows');
    },
    'sweep of expired rows failed',
  );
}
