import { ONE_HOUR_MS } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { sweepExpiredExtracts } from './extracts.service';
import { failAbandoned, onExtractQueued, runExtractJobs } from './extracts.worker';
import { snapshotCompliance } from './overview.service';
import { DASHBOARD_REFRESH_INTERVAL_MS, refreshDashboards } from './dashboard.service';

/** How often each node looks for queued data extracts. */
export const EXTRACT_POLL_MS = 2_000;
/** How often each node rewrites today's compliance snapshot and sweeps expired extracts. */
export const SNAPSHOT_INTERVAL_MS = ONE_HOUR_MS;

/**
 * The reports' background work on this node (serve.ts starts it): today's compliance
 * snapshot at once and then hourly, expired and abandoned extracts swept hourly, the
 * dashboards of the zones being looked at computed ahead every {@link DASHBOARD_REFRESH_INTERVAL_MS},
 * and the data extract worker every {@link EXTRACT_POLL_MS} and whenever this node queues one. All of it is safe on several
 * nodes: snapshots are upserts, dashboards and extracts are claimed with `FOR UPDATE SKIP
 * LOCKED` (as the policy engine claims its due slots), so one node computes each. Stopping gives
 * an extract in progress back to the queue instead of waiting for it to finish.
 */
export function startReportJobs(ctx: AppContext): PeriodicTask {
  const hourly = async () => {
    const zones = await snapshotCompliance(ctx);
    const expired = await sweepExpiredExtracts(ctx);
    const abandoned = await failAbandoned(ctx);
    ctx.logger.debug({ zones, expired, abandoned }, 'reports: compliance snapshot taken, extracts swept');
  };
  void hourly().catch((err: unknown) => ctx.logger.warn({ err }, 'compliance snapshot failed'));
  const snapshots = startPeriodic(ctx.logger, SNAPSHOT_INTERVAL_MS, hourly, 'compliance snapshot failed');
  const dashboards = startPeriodic(
    ctx.logger,
    DASHBOARD_REFRESH_INTERVAL_MS,
    async () => {
      const zones = await refreshDashboards(ctx);
      if (zones.length) ctx.logger.debug({ zones }, 'reports: dashboards computed ahead');
    },
    'computing dashboards ahead failed',
  );
  const stopping = new AbortController();
  const extracts = startPeriodic(
    ctx.logger,
    EXTRACT_POLL_MS,
    async () => {
      const built = await runExtractJobs(ctx, { signal: stopping.signal });
      if (built.length) ctx.logger.info({ extracts: built }, 'data extracts built');
    },
    'data extract worker failed',
  );
  onExtractQueued(ctx.db, () => extracts.runNow());
  return {
    async stop() {
      stopping.abort();
      await Promise.all([snapshots.stop(), dashboards.stop(), extracts.stop()]);
    },
  };
}
