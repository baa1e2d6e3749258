import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { limitQueryCache, shouldRetry } from './query-client';

function client(max: number) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  limitQueryCache(qc.getQueryCache(), max);
  return qc;
}

describe('query cache', () => {
  it('keeps at most 10 entries, dropping the least recently used', async () => {
    const qc = client(10);
    for (let i = 0; i < 15; i++) await qc.fetchQuery({ queryKey: ['item', i], queryFn: () => i });
    const keys = qc
      .getQueryCache()
      .getAll()
      .map((q) => q.queryKey[1]);
    expect(keys).toHaveLength(10);
    expect(keys).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  });

  it('never evicts a query a component is watching', async () => {
    const qc = client(3);
    const observer = new QueryObserver(qc, { queryKey: ['watched'], queryFn: () => 'w' });
    const unsubscribe = observer.subscribe(() => undefined);
    for (let i = 0; i < 6; i++) await qc.fetchQuery({ queryKey: ['item', i], queryFn: () => i });
    expect(qc.getQueryData(['watched'])).toBe('w');
    expect(qc.getQueryCache().getAll()).toHaveLength(3);
    unsubscribe();
  });

  it('counts a query as used again when it is read', async () => {
    const qc = client(3);
    for (let i = 0; i < 3; i++) await qc.fetchQuery({ queryKey: ['item', i], queryFn: () => i });
    // Refetching item 0 makes item 1 the least recently used.
    await qc.fetchQuery({ queryKey: ['item', 0], queryFn: () => 0, staleTime: 0 });
    await qc.fetchQuery({ queryKey: ['item', 3], queryFn: () => 3 });
    const keys = qc
      .getQueryCache()
      .getAll()
      .map((q) => q.queryKey[1]);
    expect(keys.sort()).toEqual([0, 2, 3]);
  });
});

describe('retries', () => {
  it('does not retry a 4xx and retries other failures twice', () => {
    expect(shouldRetry(0, new ApiError(404, null, '/x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(401, null, '/x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(503, null, '/x'))).toBe(true);
    expect(shouldRetry(1, new TypeError('network'))).toBe(true);
    expect(shouldRetry(2, new TypeError('network'))).toBe(false);
  });
});
