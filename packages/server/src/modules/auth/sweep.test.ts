import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ONE_MINUTE_MS } from '@patchwell/core/constants';
import { loginFailures, sessions } from '../../db/schema';
import { createLogger } from '../../logger';
import { createTestDb } from '../../test/db';
import { buildAccountWithUser } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/app';
import { sweepExpired, startSweeper } from './sweep.service';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ config: { trustProxy: true } });
});
afterAll(() => t.close());

/** Deletes everything the sweep looks at, so each test counts only its own rows. */
async function emptyTables() {
  await t.db.delete(sessions);
  await t.db.delete(loginFailures);
}

/** `n` sessions of a new user, expiring at `expiresAt`, written straight to the table. */
async function insertSessions(n: number, expiresAt: Date) {
  const { user } = await buildAccountWithUser(t.db);
  const now = t.clock.now();
  await t.db.insert(sessions).values(
    Array.from({ length: n }, () => ({
      id: randomBytes(16).toString('hex'),
      userId: user.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    })),
  );
}

const countRows = async () => ({
  sessions: (await t.db.select().from(sessions)).length,
  attempts: (await t.db.select().from(loginFailures)).length,
});

describe('sweepExpired', () => {
  it('deletes expired sessions and attempts older than the longest rate-limit window, as of the clock', async () => {
    await emptyTables();
    const early = await buildAccountWithUser(t.db);
    const late = await buildAccountWithUser(t.db);
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

    const first = await t.signIn(early.user.email, early.user.password, from('203.0.113.1'));
    await t.signIn(early.user.email, 'wrong-password-1', from('203.0.113.1')); // 2 attempt rows
    t.clock.advance(20 * ONE_MINUTE_MS);
    const second = await t.signIn(late.user.email, late.user.password, from('203.0.113.2'));
    await t.signIn(late.user.email, 'wrong-password-2', from('203.0.113.2')); // 2 more, 20 minutes later

    // 40 minutes in: the first session was idle 40 minutes (limit 30), the second 20.
    t.clock.advance(20 * ONE_MINUTE_MS);
    expect(await sweepExpired(t.ctx)).toEqual({ sessions: 1, attempts: 0, links: 0 });
    expect(await t.db.select({ userId: sessions.userId }).from(sessions)).toEqual([{ userId: late.user.id }]);
    const check = (cookie: string) => t.request('/api/users/is-authenticated', { headers: { cookie } });
    expect((await check(first.cookie)).status).toBe(401);
    expect((await check(second.cookie)).status).toBe(200);

    // 61 minutes in: the first two attempts left the 60-minute sign-up window, the longest.
    t.clock.advance(21 * ONE_MINUTE_MS);
    expect(await sweepExpired(t.ctx)).toEqual({ sessions: 0, attempts: 2, links: 0 });
    expect(await sweepExpired(t.ctx)).toEqual({ sessions: 0, attempts: 0, links: 0 });
    const left = await t.db.select({ key: loginFailures.key }).from(loginFailures);
    expect(left.map((r) => r.key).sort()).toEqual(['203.0.113.2', late.user.email].sort());
  });

  it('keeps a session that expires exactly now and deletes one expired a millisecond ago', async () => {
    await emptyTables();
    const now = t.clock.now().getTime();
    await insertSessions(1, new Date(now));
    await insertSessions(1, new Date(now - 1));
    expect(await sweepExpired(t.ctx)).toEqual({ sessions: 1, attempts: 0, links: 0 });
    expect((await t.db.select().from(sessions))[0]!.expiresAt.getTime()).toBe(now);
  });

  it('deletes in batches until none is left', async () => {
    await emptyTables();
    await insertSessions(25, new Date(t.clock.now().getTime() - 1));
    await insertSessions(3, new Date(t.clock.now().getTime() + ONE_MINUTE_MS));
    expect(await sweepExpired(t.ctx, { batchSize: 10 })).toEqual({ sessions: 25, attempts: 0, links: 0 });
    expect(await countRows()).toEqual({ sessions: 3, attempts: 0 });
  });

  it('can run on several nodes at once: every row is deleted once and none fails', async () => {
    await emptyTables();
    await insertSessions(40, new Date(t.clock.now().getTime() - 1));
    const old = new Date(t.clock.now().getTime() - 61 * ONE_MINUTE_MS);
    await t.db
      .insert(loginFailures)
      .values(Array.from({ length: 30 }, (_, i) => ({ kind: 'ip' as const, key: `192.0.2.${i}`, occurredAt: old })));
    const runs = await Promise.all([1, 2, 3].map(() => sweepExpired(t.ctx, { batchSize: 7 })));
    expect(runs.reduce((sum, r) => sum + r.sessions, 0)).toBe(40);
    expect(runs.reduce((sum, r) => sum + r.attempts, 0)).toBe(30);
    expect(await countRows()).toEqual({ sessions: 0, attempts: 0 });
  });
});

describe('startSweeper', () => {
  it('sweeps on every tick until stopped', async () => {
    await emptyTables();
    await insertSessions(2, new Date(t.clock.now().getTime() - 1));
    // Only the sweeper's interval is faked: the ticks come when the test says, the database works as ever.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sweeper = startSweeper(t.ctx, 10);
      vi.advanceTimersByTime(10);
      await sweeper.stop(); // waits for the sweep the tick started
      expect((await countRows()).sessions).toBe(0);
      // Stopped: no timer is left to tick, however long it is.
      expect(vi.getTimerCount()).toBe(0);
      await insertSessions(1, new Date(t.clock.now().getTime() - 1));
      vi.advanceTimersByTime(1000);
      expect((await countRows()).sessions).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed sweep and keeps going', async () => {
    const lines: string[] = [];
    const closed = await createTestDb();
    await closed.close();
    const logger = createLogger('warn', { destination: { write: (l: string) => void lines.push(l) } });
    const sweeper = startSweeper({ ...t.ctx, db: closed.db, logger }, 10);
    try {
      for (let i = 0; i < 200 && lines.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await sweeper.stop();
    }
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, msg: 'sweep of expired rows failed' });
  });
});
