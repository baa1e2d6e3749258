import type { AppContext } from '../../../context';
import { isDatabaseUnavailable } from '../../../db/errors';
import { startPeriodic, type PeriodicTask } from '../../../periodic';
import { buildBatch, failBatch } from './batch-build.service';
import type { NewFinding } from './batch-findings.store';
import { findBuildingBatchIds } from './batches.store';

/**
 * This node's batch builds: an upload answers at once with its batch `building` and hands
 * the id (and the findings it parsed) here; builds run one at a time, each once its upload's
 * answer has been sent. Nothing lives only here: a batch's findings are staged before it is
 * scheduled, so at start (and every sweep) the node builds every batch still `building`,
 * whether this node or another left it so. Two nodes may try the same batch; the one holding
 * its row builds it, the other skips it.
 */
export type BatchBuilder = {
  /**
   * Builds the batch once `after` settles (the upload's answer has left; default: the next
   * turn of the event loop), from `findings` when the upload hands over what it parsed (else
   * from the copy it staged). Deduplicated; `idle()` waits for it.
   */
  schedule(batchId: number, after?: Promise<unknown>, findings?: NewFinding[]): void;
  /** Schedules every batch left `building`, oldest first. */
  sweep(): Promise<void>;
  /** Sweeps now and every BATCH_SWEEP_INTERVAL_MS (the app calls it when it is ready). */
  start(): Promise<void>;
  /** Resolves once no build runs and none is waiting (or the builder is paused). */
  idle(): Promise<void>;
  /** Starts no further build; tests use it to leave a batch `building`, as a node that died would. */
  pause(): void;
  /** Stops the sweep and waits for the build in progress. */
  close(): Promise<void>;
};

/** How often each node looks for batches left `building` (a node that died mid-build). */
export const BATCH_SWEEP_INTERVAL_MS = 60_000;
const SWEEP_LIMIT = 100;

/** The reason a batch that could not be built shows. */
export const BUILD_FAILED_REASON =
  'Matching this file to the zone’s devices failed. Upload the file again; if it fails again, contact support.';

export function createBatchBuilder(ctx: AppContext, intervalMs: number = BATCH_SWEEP_INTERVAL_MS): BatchBuilder {
  /** Batches to build, each with what its build waits for and the findings its upload parsed. */
  const queue = new Map<number, { after: Promise<unknown>; findings?: NewFinding[] }>();
  let running: Promise<void> | undefined;
  let isPaused = false;
  let isClosed = false;
  let sweeper: PeriodicTask | undefined;
  let waiters: (() => void)[] = [];

  const isIdle = () => !running && (queue.size === 0 || isPaused || isClosed);
  const settle = () => {
    if (!isIdle()) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  async function buildOne(batchId: number, findings: NewFinding[] | undefined): Promise<void> {
    try {
      const started = performance.now();
      if (await buildBatch(ctx, batchId, findings)) {
        ctx.logger.info({ batchId, ms: Math.round(performance.now() - started) }, 'remediation batch built');
      }
    } catch (err) {
      if (isDatabaseUnavailable(err)) {
        // Not the file's fault: it stays building and the next sweep tries again.
        ctx.logger.warn({ err, batchId }, 'remediation batch not built: database unavailable');
        return;
      }
      ctx.logger.error({ err, batchId }, 'remediation batch could not be built');
      await failBatch(ctx, batchId, BUILD_FAILED_REASON, findings).catch((failure: unknown) =>
        ctx.logger.error({ err: failure, batchId }, 'remediation batch could not be marked failed'),
      );
    }
  }

  function pump(): void {
    if (running || isPaused || isClosed) return settle();
    const next = queue.entries().next();
    if (next.done) return settle();
    const [batchId, { after, findings }] = next.value;
    running = (async () => {
      // On PGlite a build holds the one connection: the upload's answer must be out first.
      await after.catch(() => undefined);
      await buildOne(batchId, findings);
    })().finally(() => {
      queue.delete(batchId);
      running = undefined;
      pump();
    });
  }

  const builder: BatchBuilder = {
    schedule(batchId, after = new Promise((resolve) => setImmediate(resolve)), findings) {
      if (isClosed || queue.has(batchId)) return;
      queue.set(batchId, { after, findings });
      pump();
    },
    async sweep() {
      for (const id of await findBuildingBatchIds(ctx.db, SWEEP_LIMIT)) builder.schedule(id);
    },
    async start() {
      await builder.sweep().catch((err: unknown) => ctx.logger.warn({ err }, 'sweep of building batches failed'));
      sweeper = startPeriodic(ctx.logger, intervalMs, () => builder.sweep(), 'sweep of building batches failed');
    },
    idle() {
      return isIdle() ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    pause() {
      isPaused = true;
    },
    async close() {
      isClosed = true;
      await sweeper?.stop();
      await running;
      settle();
    },
  };
  return builder;
}
