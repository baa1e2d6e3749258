import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { buildZoneWithKey, enrollDevice } from '../test/agents';
import { startTestApp, type TestApp } from '../test/app';
import { csvCell } from './csv';

describe('csvCell, the CSV exports’ formula guard', () => {
  it('guards ASCII formula starts, tab, CR and LF', () => {
    for (const c of ['=1', '+1', '-1', '@x', '\tx', '\rx', '\nx']) expect(csvCell(c)).toBe(`'${c}`);
  });

  it('guards full-width and small-form look-alikes and the minus sign (defect 9)', () => {
    for (const c of ['＝1+1', '＋1', '－1', '＠SUM(A1)', '﹦1', '﹢1', '﹣1', '﹫x', '−1'])
      expect(csvCell(c)).toBe(`'${c}`);
  });

  it('guards a formula start after leading whitespace', () => {
    for (const c of [' =1', '  +1', '\u00a0-1', '\u3000＝1', ' \t@x']) expect(csvCell(c)).toBe(`'${c}`);
  });

  it('leaves other text alone, joins lists and writes nothing for null', () => {
    for (const c of ['plain', 'a=b', 'web-01', '1-2', 'e-mail@x', '']) expect(csvCell(c)).toBe(c);
    expect(csvCell(['a', 'b'])).toBe('a b');
    expect(csvCell(null)).toBe('');
  });
});

describe('GET /api/servers/export.csv', () => {
  let t: TestApp;
  let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
  beforeAll(async () => {
    t = await startTestApp();
    z = await buildZoneWithKey(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('exports look-alike formula names as text', async () => {
    const names = ['＝HYPERLINK("http://evil")', '－1+1', '＠SUM(A1)'];
    for (const [i, name] of names.entries()) {
      const device = await enrollDevice(t, z.accessKey, { hostname: `csv-${i}` });
      const put = await z.admin.put(`/api/servers/${device.id}?o=${z.zone.id}`, { custom_name: name });
      expect(put.status).toBe(200);
    }
    const res = await t.request(`/api/servers/export.csv?o=${z.zone.id}&sort=hostname:asc`, {
      headers: { cookie: z.cookie },
    });
    expect(res.status).toBe(200);
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.Name)).toEqual(names.map((n) => `'${n}`));
  });
});
