import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { describe, expect, it } from 'vitest';
import { demoFleetPlan } from './demo.fleet';

describe('the demo fleet', () => {
  it('numbers each zone’s hostnames apart, so no hostname is in two zones', () => {
    for (const total of [32, 200, 1000]) {
      const plan = demoFleetPlan(total);
      expect(plan.map((z) => z.count).reduce((a, b) => a + b, 0)).toBe(total);
      const names = plan.flatMap(({ count, seed, hostNumberOffset }) =>
        Array.from(
          { length: count },
          (_, i) => generateMachine(seed, i, undefined, hostNumberOffset + i).system.hostname,
        ),
      );
      expect(new Set(names).size).toBe(total);
    }
    expect(demoFleetPlan(32)).toEqual([
      { count: 24, seed: 1000, hostNumberOffset: 0 },
      { count: 8, seed: 1001, hostNumberOffset: 24 },
    ]);
  });
});
