import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeFeedOf } from '../../db/change-feed';
import { organizations } from '../../db/schema';
import { createTestDb, type TestDbHandle } from '../../test/db';
import { buildAccount, buildZone } from '../../test/factories';
import { findZoneCached } from './zone-cache';

/** The zones every request reads first, kept in memory until any zone changes (change feed). */

let handle: TestDbHandle;
beforeAll(async () => {
  handle = await createTestDb();
  // On PostgreSQL the feed's listening connection comes up after the pool: until then nothing is kept.
  await vi.waitFor(() => expect(changeFeedOf(handle.db)?.trusted).toBe(true), { timeout: 10_000 });
});
afterAll(async () => {
  await handle.close();
});

describe('findZoneCached', () => {
  it('answers from memory until a zone changes, then reads the change', async () => {
    const account = await buildAccount(handle.db);
    const zone = await buildZone(handle.db, { accountId: account.id, plan: 'patch' });
    expect((await findZoneCached(handle.db, zone.id))?.plan).toBe('patch');
    // On PostgreSQL the notifications of the writes above reach this node's other connections a
    // moment later, each emptying the cache once (CI saw one arrive between two reads): once
    // they are in, the same zone comes from memory.
    await vi.waitFor(async () => {
      const first = await findZoneCached(handle.db, zone.id);
      expect(await findZoneCached(handle.db, zone.id)).toBe(first);
    });
    await handle.db.update(organizations).set({ plan: 'tier3' }).where(eq(organizations.id, zone.id));
    expect((await findZoneCached(handle.db, zone.id))?.plan).toBe('tier3');
  });

  it('keeps a missing zone missing until zones change, and finds it once created', async () => {
    const account = await buildAccount(handle.db);
    const missing = 2_000_000_000;
    expect(await findZoneCached(handle.db, missing)).toBeUndefined();
    await buildZone(handle.db, { accountId: account.id, id: missing });
    expect((await findZoneCached(handle.db, missing))?.id).toBe(missing);
  });

  it('gives rows nobody can change by mistake', async () => {
    const account = await buildAccount(handle.db);
    const zone = await buildZone(handle.db, { accountId: account.id });
    const row = await findZoneCached(handle.db, zone.id);
    expect(Object.isFrozen(row)).toBe(true);
  });
});
