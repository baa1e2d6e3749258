import { describe, expect, it } from 'vitest';
import { startPeriodic } from './periodic';

const logger = { warn: () => undefined };
const HOUR = 3_600_000;

/** A task whose runs end when the test says so. */
function gatedTask() {
  const ends: (() => void)[] = [];
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    task: () => {
      runs += 1;
      return new Promise<void>((resolve) => ends.push(resolve));
    },
    /** Ends the oldest run still going and lets its `finally` run. */
    async endRun() {
      ends.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('startPeriodic', () => {
  it('runs at once when asked, without waiting for the timer', async () => {
    const gate = gatedTask();
    const timed = startPeriodic(logger, HOUR, gate.task, 'failed');
    timed.runNow();
    expect(gate.runs).toBe(1);
    await gate.endRun();
    await timed.stop();
  });

  it('asked during a run, runs once more right after it, however often it was asked', async () => {
    const gate = gatedTask();
    const timed = startPeriodic(logger, HOUR, gate.task, 'failed');
    timed.runNow();
    timed.runNow();
    timed.runNow();
    expect(gate.runs).toBe(1);
    await gate.endRun();
    expect(gate.runs).toBe(2);
    await gate.endRun();
    expect(gate.runs).toBe(2);
    await timed.stop();
  });

  it('runs no more once stopped', async () => {
    const gate = gatedTask();
    const timed = startPeriodic(logger, HOUR, gate.task, 'failed');
    timed.runNow();
    timed.runNow();
    const stopping = timed.stop();
    await gate.endRun();
    await stopping;
    timed.runNow();
    expect(gate.runs).toBe(1);
  });
});
