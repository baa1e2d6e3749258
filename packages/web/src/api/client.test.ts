import { ZBannerList } from '@patchwell/core/shell/banner.schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../test/server';
import { createApiClient, encodeQuery } from './client';
import { errorText } from './error-text';
import { ApiError, ResponseShapeError, TimeoutError } from './errors';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/banners': () => ({ body: [{ id: 1, message: 'Maintenance tonight', messagetype: 'maintenance' }] }),
    'GET /api/bad-shape': () => ({ body: [{ id: 'x' }] }),
    'GET /api/conflict': () => ({
      status: 409,
      body: { errors: { email: ['This email address is already in use.'] } },
    }),
    'GET /api/denied': () => ({ status: 401, body: { code: 'auth.session_expired', message: 'Session expired.' } }),
    'GET /api/forbidden': () => ({ status: 403, body: { message: 'No.' } }),
    'GET /api/plain-error': () => ({ status: 500, body: undefined }),
    'GET /api/slow': () => ({ delayMs: 300, body: true }),
    'POST /api/echo': (req) => ({
      status: 201,
      body: { got: JSON.parse(req.body), type: req.headers['content-type'] },
    }),
    'GET /api/query': (req) => ({ body: { search: req.query.toString() } }),
  });
});

afterAll(() => server.close());

describe('API client', () => {
  it('returns a 2xx body validated by the core schema', async () => {
    const api = createApiClient({ baseUrl: server.url });
    const banners = await api.request('/api/banners', { schema: ZBannerList });
    expect(banners).toEqual([{ id: 1, message: 'Maintenance tonight', messagetype: 'maintenance' }]);
  });

  it('rejects a 2xx body that does not match the schema', async () => {
    const api = createApiClient({ baseUrl: server.url });
    await expect(api.request('/api/bad-shape', { schema: ZBannerList })).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('throws ApiError carrying the status and the error body', async () => {
    const api = createApiClient({ baseUrl: server.url });
    const error = await api.request('/api/conflict').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).body).toEqual({ errors: { email: ['This email address is already in use.'] } });
    expect(errorText(error)).toBe('Error: This email address is already in use.');
  });

  it('uses the generic text when a failure has no body', async () => {
    const api = createApiClient({ baseUrl: server.url });
    const error = await api.request('/api/plain-error').catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(500);
    expect(errorText(error)).toBe(
      'An unexpected error occurred. Please try again. If the issue persists, contact support.',
    );
  });

  it('fails with TimeoutError and "The request timed out at: {ms}" when the server is too slow', async () => {
    const api = createApiClient({ baseUrl: server.url });
    const error = await api.request('/api/slow', { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toBe('The request timed out at: 50');
  });

  it('passes a caller’s cancellation through as an abort, not a timeout', async () => {
    const api = createApiClient({ baseUrl: server.url });
    const controller = new AbortController();
    const pending = api.request('/api/slow', { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('sends JSON bodies and encodes arrays the way the server’s qs parser reads them', async () => {
    const api = createApiClient({ baseUrl: server.url });
    await expect(api.request('/api/echo', { method: 'POST', body: { a: 1 } })).resolves.toEqual({
      got: { a: 1 },
      type: 'application/json',
    });
    const { search } = await api.request<{ search: string }>('/api/query', {
      query: { o: 3, ids: [1, 2], skip: undefined },
    });
    expect(new URLSearchParams(search).getAll('ids[]')).toEqual(['1', '2']);
    expect(encodeQuery({ a: null, b: 'x y' })).toBe('b=x+y');
  });

  it('asks for a session check after a 401 or 403, unless the call opts out', async () => {
    const onAuthFailure = vi.fn();
    const api = createApiClient({ baseUrl: server.url, onAuthFailure });
    await api.request('/api/denied').catch(() => undefined);
    await api.request('/api/forbidden').catch(() => undefined);
    await api.request('/api/denied', { skipAuthCheck: true }).catch(() => undefined);
    await api.request('/api/conflict').catch(() => undefined);
    expect(onAuthFailure).toHaveBeenCalledTimes(2);
  });

  it('reports every request’s start and end to the loader, failures included', async () => {
    const onRequestStart = vi.fn();
    const onRequestEnd = vi.fn();
    const api = createApiClient({ baseUrl: server.url, onRequestStart, onRequestEnd });
    await api.request('/api/banners');
    await api.request('/api/conflict').catch(() => undefined);
    await api.request('/api/slow', { timeoutMs: 20 }).catch(() => undefined);
    expect(onRequestStart).toHaveBeenCalledTimes(3);
    expect(onRequestEnd).toHaveBeenCalledTimes(3);
  });
});
