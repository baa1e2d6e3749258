import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { runReportSchedules } from './schedules.worker';

/** How often each node looks for due scheduled reports and sends to retry. */
export const SCHEDULE_POLL_MS = 15_000;

/**
 * The scheduled reports' worker on this node (serve.ts starts it, shutdown stops it). Safe on
 * any number of nodes: due times are claimed under `SKIP LOCKED` and a unique send per due
 * time. Stopping lets the mail in progress finish and claims no more.
 */
export function startReportScheduleJobs(ctx: AppContext): PeriodicTask {
  const stopping = new AbortController();
  const task = startPeriodic(
    ctx.logger,
    SCHEDULE_POLL_MS,
    async () => {
      const { created, sent } = await runReportSchedules(ctx, { signal: stopping.signal });
      if (created || sent.length)
        ctx.logger.info({ created, sent }, 'scheduled reports: due times claimed, mails sent');
    },
    'scheduled report worker failed',
  );
  return {
    async stop() {
      stopping.abort();
      await task.stop();
    },
  };
}
