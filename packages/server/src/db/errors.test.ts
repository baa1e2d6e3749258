import { describe, expect, it } from 'vitest';
import { bodyOf, startTestApp } from '../test/app';
import { createTestDb } from '../test/db';
import { buildAccountWithUser } from '../test/factories';
import { cookieFor } from '../test/authz-helpers';
import { isDatabaseUnavailable, isUniqueViolation } from './errors';

/** Issue 10 defect 5: telling "the database is away" from "the query failed". */

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a database going away or not reachable, wrapped or not', () => {
    for (const err of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      new Error('Connection terminated unexpectedly'),
      new Error('PGlite is closed'),
      Object.assign(new Error('Failed query: select 1'), { cause: pgError('57P01') }),
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], ''),
    ]) {
      expect([err.message, isDatabaseUnavailable(err)]).toEqual([err.message, true]);
    }
  });

  it('leaves query errors alone', () => {
    for (const err of [
      pgError('23505'),
      pgError('42P01', 'relation does not exist'),
      new Error('boom'),
      null,
      'text',
    ]) {
      expect(isDatabaseUnavailable(err)).toBe(false);
    }
    expect(isUniqueViolation(pgError('57P01'))).toBe(false);
  });
});

describe('the API while the database is away', () => {
  it('answers 503 with Retry-After, not 500, once the database (PGlite or the pool) is closed', async () => {
    const handle = await createTestDb();
    const t = await startTestApp({ db: handle });
    try {
      const { user, zone } = await buildAccountWithUser(t.db);
      const cookie = await cookieFor(t, user);
      expect((await t.request(`/api/servers?o=${zone.id}`, { headers: { cookie } })).status).toBe(200);
      await handle.close();
      const res = await t.request(`/api/servers?o=${zone.id}`, { headers: { cookie } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect((await bodyOf(res)).code).toBe('unavailable');
    } finally {
      await t.close();
    }
  });
});
