import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZE_EXTRA } from '@patchwell/core/constants';
import { startTestApp, type TestApp } from './app';
import { buildZoneWithKey, enrollDevice } from './agents';

type Parameter = { in: string; name: string; required?: boolean; schema?: { type?: string } };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

let t: TestApp;
let z: Awaited<ReturnType<typeof buildZoneWithKey>>;
let deviceId: number;

beforeAll(async () => {
  t = await startTestApp();
  z = await buildZoneWithKey(t);
  deviceId = (await enrollDevice(t, z.accessKey, { hostname: 'paged' })).id;
});
afterAll(async () => {
  await t.close();
});

/** Every list route of the OpenAPI document (a GET that takes `limit`), with its path filled in. */
function listRoutes(): string[] {
  const doc = t.app.swagger() as unknown as Document;
  const urls: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    const params = methods.get?.parameters ?? [];
    if (!params.some((p) => p.in === 'query' && p.name === 'limit')) continue;
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'accountId') return String(z.account.id);
      if (name === 'orgId') return String(z.zone.id);
      // A CVE is named by its id; one no scanner reported in the zone answers 404.
      if (name === 'cve') return 'CVE-2024-3094';
      return name === 'id' && path.startsWith('/api/servers/') ? String(deviceId) : '1';
    });
    const required = params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `&${p.name}=${p.schema?.type === 'integer' ? 1 : 'x'}`)
      .join('');
    urls.push(`${filled}?o=${z.zone.id}${required}`);
  }
  return urls;
}

describe('page sizes (spec B section 9)', () => {
  it('accepts limit=700 on every list route, and refuses 701', async () => {
    const routes = listRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const answers: Record<string, [number, number]> = {};
    for (const url of routes) {
      const at = await t.request(`${url}&limit=${PAGE_SIZE_EXTRA}`, { headers: { cookie: z.cookie } });
      const over = await t.request(`${url}&limit=${PAGE_SIZE_EXTRA + 1}`, { headers: { cookie: z.cookie } });
      answers[url] = [at.status, over.status];
    }
    // 700 passes validation (200, or 404 for a run that does not exist); 701 is a 400.
    for (const [url, [at, over]] of Object.entries(answers)) {
      expect([url, at === 200 || at === 404], `${url} answered ${at} to limit=700`).toEqual([url, true]);
      expect([url, over]).toEqual([url, 400]);
    }
    expect(Object.values(answers).filter(([at]) => at === 200).length).toBeGreaterThanOrEqual(10);
  });
});
