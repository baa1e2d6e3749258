import type { AppContext } from '../../context';
import { startPeriodic, type PeriodicTask } from '../../periodic';
import { timeOutOverdue } from './commands.service';

/** How often each node looks for overdue commands. */
export const COMMAND_SWEEP_INTERVAL_MS = 15_000;
const BATCH = 1000;

/**
 * Marks every command past its deadline `timed_out`, in batches; an install timed out is a
 * failed patch (`patch.failed`). Safe on several nodes at once: each batch skips rows another
 * node holds, and a final status is never overwritten.
 */
export async function sweepOverdueCommands(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now();
  let total = 0;
  for (;;) {
    const n = await timeOutOverdue(ctx, now, BATCH);
    total += n;
    if (n < BATCH) return total;
  }
}

/** Runs {@link sweepOverdueCommands} every `intervalMs`; the timer does not keep the process alive. */
export function startCommandSweeper(ctx: AppContext, intervalMs: number = COMMAND_SWEEP_INTERVAL_MS): PeriodicTask {
  return startPeriodic(
    ctx.logger,
    intervalMs,
    async () => {
      const n = await sweepOverdueCommands(ctx);
      if (n) ctx.logger.debug({ commands: n }, 'commands timed out');
    },
    'sweep of overdue commands failed',
  );
}
