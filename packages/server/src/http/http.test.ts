import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXTS } from '@patchwell/core/texts';
import type { DbHandle } from '../db/client';
import { createLogger } from '../logger';
import { buildAccountWithUser } from '../test/factories';
import { createTestDb } from '../test/db';
import { bodyOf, startTestApp, type TestApp } from '../test/app';

let handle: DbHandle;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  handle = await createTestDb();
  t = await startTestApp({
    db: handle,
    logger: createLogger('info', { destination: { write: (line: string) => void logLines.push(line) } }),
    extend: (app) => {
      // Echoes the parsed query string, to observe the parser's limits.
      app.get('/api/test/echo', { config: { access: 'public' } }, async (request) => request.query);
    },
  });
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff, same-origin referrers and no HSTS over plain HTTP', async () => {
    const res = await t.request('/healthz');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends none of them to the agents’ API (programs, not browsers), and the same set to every other route', async () => {
    const agent = await t.request('/api/agent/v1/checkin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: {}, wait_s: 0 }),
    });
    expect(agent.status).toBe(401);
    expect(agent.headers.get('content-security-policy')).toBeNull();
    expect(agent.headers.get('x-frame-options')).toBeNull();
    const [health, missing] = await Promise.all([t.request('/healthz'), t.request('/api/no-such-route')]);
    expect(missing.headers.get('content-security-policy')).toBe(health.headers.get('content-security-policy'));
    expect(missing.headers.get('x-frame-options')).toBe('DENY');
  });

  it('adds HSTS, upgrade-insecure-requests and a Secure __Host- cookie when the public URL is https', async () => {
    const https = await startTestApp({ db: handle, env: { PATCHWELL_PUBLIC_URL: 'https://patch.example.test' } });
    try {
      const res = await https.request('/healthz');
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
      const { user } = await buildAccountWithUser(handle.db);
      const { res: signIn } = await https.signIn(user.email, user.password);
      expect(signIn.headers.getSetCookie()[0]).toMatch(
        /^__Host-pw_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    } finally {
      await https.close();
    }
  });

  it('marks API answers as not cacheable', async () => {
    expect((await t.request('/api/shared/js/config')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('request ids', () => {
  it('echoes a caller’s x-request-id and makes one up otherwise', async () => {
    const given = await t.request('/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await t.request('/healthz');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await t.request('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the request id on error responses', async () => {
    const res = await t.request('/api/nowhere', { headers: { 'x-request-id': 'trace-404' } });
    expect(res.headers.get('x-request-id')).toBe('trace-404');
  });
});

describe('query string parsing', () => {
  const echo = async (query: string) => bodyOf(await t.request(`/api/test/echo?${query}`));

  it('parses nested keys and bracket arrays', async () => {
    expect(await echo('status:equals[]=a&status:equals[]=b&filter[a][b]=c')).toEqual({
      'status:equals': ['a', 'b'],
      filter: { a: { b: 'c' } },
    });
  });

  it('stops nesting at depth 5 and keeps the rest as one literal key', async () => {
    expect(await echo('a[b][c][d][e][f][g]=1')).toEqual({ a: { b: { c: { d: { e: { f: { '[g]': '1' } } } } } } });
  });

  it('keeps up to 20 items as an array; more become an object instead of a huge sparse array', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `y[]=${i}`).join('&');
    expect((await echo(items(20))).y).toHaveLength(20);
    expect(Array.isArray((await echo(items(21))).y)).toBe(false);
    expect(await echo('x[19]=a')).toEqual({ x: ['a'] });
    expect(await echo('x[999999]=a')).toEqual({ x: { 999999: 'a' } });
  });

  it('keeps at most 1000 parameters', async () => {
    const query = Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&');
    expect(Object.keys(await echo(query))).toHaveLength(1000);
  });
});

describe('error responses', () => {
  it('answers unknown /api and /bespoke paths with JSON 404', async () => {
    for (const path of ['/api/nowhere', '/bespoke/nowhere', '/elsewhere']) {
      const res = await t.request(path);
      expect(res.status).toBe(404);
      expect(await bodyOf(res)).toEqual({ code: 'not_found', message: 'Not found.' });
    }
  });

  it('routes the bespoke base', async () => {
    const res = await t.request('/bespoke/healthz');
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ status: 'ok' });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.request('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstname: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(await bodyOf(res)).toEqual({ code: 'payload_too_large', message: 'The request body is too large.' });
  });

  it('answers a database failure with the generic 500 text and logs the cause instead', async () => {
    const { user } = await buildAccountWithUser(handle.db);
    const { cookie } = await t.signIn(user.email, user.password);
    await handle.db.execute(sql`alter table banners rename to banners_gone`);
    try {
      const res = await t.request('/api/banners', { headers: { cookie, 'x-request-id': 'trace-500' } });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ code: 'internal', message: TEXTS.generic.unexpected });
      expect(text).not.toMatch(/select|banners|relation|at .*\.ts/i);
      const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === 'trace-500' && l.level === 50);
      expect(JSON.stringify(logged.err)).toMatch(/banners/);
      // The query's bound values (here the clock's time) stay out of the log.
      expect(JSON.stringify(logged.err)).toContain('params: [redacted]');
      expect(JSON.stringify(logged.err)).not.toContain(t.clock.now().toISOString().slice(0, 10));
    } finally {
      await handle.db.execute(sql`alter table banners_gone rename to banners`);
    }
  });

  it('never logs passwords, cookies or authorization headers', async () => {
    const { user } = await buildAccountWithUser(handle.db);
    await t.signIn(user.email, user.password);
    const all = logLines.join('\n');
    expect(all).not.toContain(user.password);
    expect(all).not.toContain(Buffer.from(`${user.email}:${user.password}`).toString('base64'));
    expect(all).not.toMatch(/pw_session=/);
  });
});

describe('route access declarations', () => {
  it('refuses at start-up an /api route that does not declare its access', async () => {
    await expect(
      startTestApp({
        db: handle,
        extend: (app) => {
          app.get('/api/undeclared', async () => 'oops');
        },
      }),
    ).rejects.toThrow(/must declare config.access/);
  });
});
