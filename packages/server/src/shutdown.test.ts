import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './db/client';
import { createTestDb } from './test/db';
import { bodyOf, startTestApp } from './test/app';
import { shutdownGracefully } from './shutdown';

let handle: DbHandle;

beforeAll(async () => {
  handle = await createTestDb();
});
afterAll(() => handle.close());

const DRAIN_MS = 400;

describe('shutdownGracefully', () => {
  it('fails /readyz at once, serves through the drain, then closes the listener after requests in flight and the database last', async () => {
    const events: string[] = [];
    let arrived = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const t = await startTestApp({
      db: handle,
      extend: (app) => {
        app.get('/api/test/slow', { config: { access: 'public' } }, async () => {
          arrived = true;
          await gate;
          return { done: true };
        });
      },
    });
    const slow = t.request('/api/test/slow');
    await expect.poll(() => arrived).toBe(true);

    // The drain ends when the test says so, not after a time it would have to measure.
    let endDrain!: () => void;
    const drained = new Promise<void>((resolve) => (endDrain = resolve));
    let drainAsked = 0;
    const stopped = shutdownGracefully({
      app: t.app,
      jobs: [{ stop: async () => void events.push('jobs stopped') }],
      db: { close: async () => void events.push('db closed') },
      drainMs: DRAIN_MS,
      drain: (ms) => {
        drainAsked = ms;
        return drained;
      },
    });
    expect(drainAsked).toBe(DRAIN_MS);

    const ready = await t.request('/readyz');
    expect(ready.status).toBe(503);
    expect(await bodyOf(ready)).toEqual({ status: 'unavailable' });
    // Still serving, but asking clients to take their next request elsewhere.
    const health = await t.request('/healthz');
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    expect(events).toEqual(['jobs stopped']);

    // After the drain the port is closed, while the slow request is still being answered.
    endDrain();
    await expect
      .poll(() =>
        t.request('/healthz').then(
          () => 'served',
          () => 'refused',
        ),
      )
      .toBe('refused');
    expect(events).toEqual(['jobs stopped']);

    release();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ done: true });
    await stopped;
    expect(events).toEqual(['jobs stopped', 'db closed']);
  });

  it('closes a connection that never sent a request instead of waiting for its headers timeout', async () => {
    const t = await startTestApp({ db: handle });
    const { port } = new URL(t.url);
    // As a client's pool leaves one: connected, nothing sent.
    const quiet = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => quiet.once('connect', resolve));
    const closedByServer = new Promise((resolve) => quiet.once('close', resolve));
    // Node alone would wait 60 s for the connection's headers, past this test's 30 s timeout.
    await shutdownGracefully({ app: t.app, jobs: [], db: { close: async () => undefined }, drainMs: 0 });
    await closedByServer;
    expect(quiet.destroyed || quiet.readyState === 'closed').toBe(true);
  });
});
