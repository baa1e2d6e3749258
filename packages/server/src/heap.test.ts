import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap';

describe('heapGrowthFlag', () => {
  it('bounds the heap’s growth unless the process was started with its own factor', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=512'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
    expect(heapGrowthFlag(['--heap-growing-percent=50'])).toBeUndefined();
    expect(heapGrowthFlag(['--heap_growing_percent=10'])).toBeUndefined();
  });
});
