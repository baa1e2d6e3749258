import type { Logger } from 'pino';

/** A task repeated on a timer; `stop` clears the timer and waits for a run in progress. */
export type PeriodicTask = { stop(): Promise<void> };

/**
 * Runs `task` every `intervalMs` on this node. A slow run is never stacked on: a tick that
 * finds the last run still going is skipped. A failed run is logged as `failure` and the
 * next tick tries again. The timer does not keep the process alive.
 */
export function startPeriodic(
  logger: Pick<Logger, 'warn'>,
  intervalMs: number,
  task: () => Promise<void>,
  failure: string,
): PeriodicTask {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = task()
      .catch((err: unknown) => logger.warn({ err }, failure))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
