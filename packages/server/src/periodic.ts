import type { Logger } from 'pino';

/** A task repeated on a timer; `stop` clears the timer and waits for a run in progress. */
export type PeriodicTask = { stop(): Promise<void> };
/** A timer's task that can also be asked to run now, when there is work for it. */
export type TimedTask = PeriodicTask & {
  /** Runs the task now rather than at the next tick; during a run, once more right after it. */
  runNow(): void;
};

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
): TimedTask {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = task()
      .catch((err: unknown) => logger.warn({ err }, failure))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
    runNow() {
      // A run in progress may have looked already: the work asked for now is done by the next.
      if (running) again = true;
      else tick();
    },
  };
}
