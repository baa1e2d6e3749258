import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import {
  DEVICE_FILTER_FIELDS,
  DEVICE_FILTER_OPS,
  type DeviceFilter,
} from '@patchwell/core/policies/device-filters.schema';
import { deviceFiltersMatch, type TargetableDevice } from '@patchwell/core/policies/device-targeting';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { createTestDb, type TestDbHandle } from '../../test/db';
import { deviceFiltersHoldSql } from './compliance.store';

/**
 * The policy list and devices' compliance count a policy's statuses through device filters
 * written in SQL; the engine targets devices through core's deviceFiltersMatch. Both must
 * give the same answer for every filter and device, or the counts and the runs disagree.
 */

let db: TestDbHandle;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

// Few letters, so values often match or contain each other; case and spaces to normalise.
const word = fc.stringMatching(/^[ \tabAB.1-]{1,4}$/);
const osFamily = fc.constantFrom<OsFamily>('linux', 'mac', 'windows');
const arbDevice: fc.Arbitrary<TargetableDevice> = fc.record({
  server_group_id: fc.constant(1),
  tags: fc.array(word, { maxLength: 3 }),
  hostname: word,
  ip_addrs: fc.array(word, { maxLength: 2 }),
  ip_addrs_private: fc.array(word, { maxLength: 2 }),
  os_family: osFamily,
  os_version: word,
});
const arbFilter: fc.Arbitrary<DeviceFilter> = fc.record({
  field: fc.constantFrom(...DEVICE_FILTER_FIELDS),
  op: fc.constantFrom(...DEVICE_FILTER_OPS),
  value: fc.array(fc.oneof(word, fc.constantFrom('macOS', ' Darwin', 'osx', 'MAC', 'linux')), {
    minLength: 1,
    maxLength: 3,
  }),
});
const arbConfig = fc.record({
  device_filters_enabled: fc.boolean(),
  device_filters: fc.array(arbFilter, { maxLength: 3 }),
});

describe('deviceFiltersHoldSql', () => {
  it('agrees with core’s deviceFiltersMatch on every sampled policy and device', async () => {
    const cases = fc.sample(fc.record({ config: arbConfig, device: arbDevice }), { numRuns: 600, seed: 10 });
    const rows = await queryRows<{ i: number | string; hold: boolean }>(
      db.db as Db,
      sql`select c.i, ${sql.raw(deviceFiltersHoldSql('p', 'd'))} as hold
            from jsonb_array_elements(${JSON.stringify(cases)}::jsonb) with ordinality as c(x, i),
                 lateral (select c.x->'config' as configuration) p,
                 lateral (select array(select jsonb_array_elements_text(c.x->'device'->'tags')) as tags,
                                 c.x->'device'->>'hostname' as hostname,
                                 array(select jsonb_array_elements_text(c.x->'device'->'ip_addrs')) as ip_addrs,
                                 array(select jsonb_array_elements_text(c.x->'device'->'ip_addrs_private')) as ip_addrs_private,
                                 c.x->'device'->>'os_family' as os_family,
                                 c.x->'device'->>'os_version' as os_version) d
           order by c.i`,
    );
    expect(rows).toHaveLength(cases.length);
    const disagreements = rows
      .map((r, index) => ({ ...cases[index]!, sql: r.hold }))
      .filter((c) => c.sql !== deviceFiltersMatch({ server_groups: [1], configuration: c.config }, c.device));
    expect(disagreements).toEqual([]);
    // The sample is worth something only if both answers occur often.
    const held = rows.filter((r) => r.hold).length;
    expect(held).toBeGreaterThan(60);
    expect(rows.length - held).toBeGreaterThan(60);
  });
});
