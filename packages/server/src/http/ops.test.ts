import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { DbHandle } from '../db/client';
import { createTestDb } from '../test/db';
import { bodyOf, startTestApp, type TestApp } from '../test/app';

let handle: DbHandle;
let t: TestApp;

beforeAll(async () => {
  handle = await createTestDb();
  t = await startTestApp({ db: handle });
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

describe('probes', () => {
  it('GET /healthz answers while the process is up', async () => {
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 when the database answers', async () => {
    const res = await t.request('/readyz');
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 503 once shutdown has begun', async () => {
    const draining = await startTestApp({ db: handle });
    try {
      draining.app.markShuttingDown();
      const res = await draining.request('/readyz');
      expect(res.status).toBe(503);
      expect(await bodyOf(res)).toEqual({ status: 'unavailable' });
      expect((await draining.request('/healthz')).status).toBe(200);
    } finally {
      await draining.close();
    }
  });

  it('GET /readyz answers 503 when the database is gone', async () => {
    const lost = await startTestApp(); // its own database, closed under it
    try {
      const dbClosed = await createTestDb();
      await dbClosed.close();
      lost.ctx.db = dbClosed.db;
      const res = await lost.request('/readyz');
      expect(res.status).toBe(503);
    } finally {
      await lost.close();
    }
  });
});

describe('GET /metrics', () => {
  it('answers only loopback requests no proxy forwarded while METRICS_TOKEN is unset (defect 9)', async () => {
    const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await get(local)).statusCode).toBe(200);
    const remote = await get('203.0.113.9');
    expect(remote.statusCode).toBe(403);
    expect(remote.json()).toEqual({
      code: 'metrics.forbidden',
      message: 'Metrics are served to this machine only, or with the bearer token set in METRICS_TOKEN.',
    });
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
    expect((await get('127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
  });

  it('answers any address that brings METRICS_TOKEN as a bearer token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const withToken = await startTestApp({ db: handle, env: { METRICS_TOKEN: token } });
    try {
      const get = (headers: Record<string, string>) =>
        withToken.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9', headers });
      expect((await get({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
      expect((await get({ authorization: `Bearer ${token}x` })).statusCode).toBe(403);
      expect((await get({})).statusCode).toBe(403);
    } finally {
      await withToken.close();
    }
  });

  it('validates METRICS_TOKEN', () => {
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(loadConfig({}).metricsToken).toBeUndefined();
    for (const bad of ['short', 'has a space in it here', 'x'.repeat(257)]) {
      expect(() => loadConfig({ METRICS_TOKEN: bad })).toThrow(
        'METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces).',
      );
    }
  });

  it('exposes default metrics and per-route request counts and durations', async () => {
    await t.request('/healthz');
    await t.request('/api/nowhere');
    const res = await t.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz",status="200"\}/,
    );
    expect(text).not.toContain('/api/nowhere');
  });
});

describe('API documentation', () => {
  it('GET /api/docs/json is an OpenAPI 3 document listing the API with tags and summaries', async () => {
    const res = await t.request('/api/docs/json');
    expect(res.status).toBe(200);
    const doc = await bodyOf(res);
    expect(doc.openapi).toMatch(/^3\./);
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { tags?: string[]; summary?: string }>>,
    ).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, ...op })));
    const listed = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /api/users/is-authenticated',
        'GET /api/users/self',
        'GET /api/logout',
        'POST /api/logout',
        'POST /api/signup',
        'GET /api/banners',
        'GET /api/shared/js/config',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
      ]),
    );
    expect(listed.some((l) => l.includes('/console') || l.includes('/api/docs'))).toBe(false);
    for (const op of operations) {
      expect(op.tags?.length, `${op.method} ${op.path} tags`).toBeGreaterThan(0);
      expect(op.summary, `${op.method} ${op.path} summary`).toBeTruthy();
    }
    const signup = doc.paths['/api/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password', 'company']),
    );
  });

  it('GET /api/docs serves the interactive reference', async () => {
    const res = await t.request('/api/docs');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });
});
