import type { Clock } from '../context';

/** A clock tests move by hand. Starts at a fixed instant so runs are repeatable. */
export type TestClock = Clock & {
  advance(ms: number): void;
  set(at: Date | string): void;
};

export function createTestClock(start: Date | string = '2026-03-02T09:00:00.000Z'): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (at) => {
      current = new Date(at).getTime();
    },
  };
}
