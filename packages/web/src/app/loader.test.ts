import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLoaderStore } from './loader';

describe('global loader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows as soon as a request starts', () => {
    const loader = createLoaderStore();
    expect(loader.isVisible()).toBe(false);
    loader.start();
    expect(loader.isVisible()).toBe(true);
  });

  it('counts concurrent requests and hides 200 ms after the last one ends', () => {
    const loader = createLoaderStore();
    loader.start();
    loader.start();
    loader.finish();
    expect(loader.pending()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(loader.isVisible()).toBe(true);
    loader.finish();
    vi.advanceTimersByTime(199);
    expect(loader.isVisible()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(loader.isVisible()).toBe(false);
  });

  it('stays visible when a new request starts within the hide delay', () => {
    const loader = createLoaderStore();
    loader.start();
    loader.finish();
    vi.advanceTimersByTime(150);
    loader.start();
    vi.advanceTimersByTime(500);
    expect(loader.isVisible()).toBe(true);
    loader.finish();
    vi.advanceTimersByTime(200);
    expect(loader.isVisible()).toBe(false);
  });

  it('notifies subscribers only when visibility changes', () => {
    const loader = createLoaderStore();
    const listener = vi.fn();
    loader.subscribe(listener);
    loader.start();
    loader.start();
    loader.finish();
    loader.finish();
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(200);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('ignores a finish without a start', () => {
    const loader = createLoaderStore();
    loader.finish();
    expect(loader.pending()).toBe(0);
    expect(loader.isVisible()).toBe(false);
  });
});
