import type { Device } from '@patchwell/core/devices/devices.schema';
import type { ConsolePageRenderInput, ConsolePageState } from '@patchwell/core/shell/page-render';
import { describe, expect, it } from 'vitest';
import { buildClientConfig, buildDevice, buildGroup, buildProfile, buildZone } from '../test/factories';
import { renderPage } from './render-page';

/**
 * The API as one user reads it: their devices and groups for their zone, 404 for any other
 * zone, and what was asked (path and query). `failing` answers 500 for that path.
 */
function userApi(zoneId: number, devices: Device[], failing?: string) {
  const asked: string[] = [];
  const fetch: ConsolePageRenderInput['fetch'] = async (url) => {
    asked.push(url);
    const { pathname, searchParams } = new URL(url, 'http://api.invalid');
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    // A tick between reads, as the app's inject has: two pages drawn at once interleave.
    await new Promise((resolve) => setImmediate(resolve));
    if (pathname === failing) return json(500, { message: 'boom' });
    if (searchParams.get('o') !== String(zoneId)) return json(404, { message: 'Not found' });
    if (pathname === '/api/servers') return json(200, { data: devices, size: devices.length });
    if (pathname === '/api/servergroups') return json(200, [buildGroup({ id: 1, name: 'Default', default: true })]);
    return json(404, { message: 'Not found' });
  };
  return { fetch, asked };
}

function input(zoneId: number, devices: Device[], url = `/console/devices?o=${zoneId}`, failing?: string) {
  const profile = buildProfile({ orgs: [buildZone({ id: zoneId, name: `Zone ${zoneId}` })] });
  const api = userApi(zoneId, devices, failing);
  return { api, input: { url, profile, banners: [], config: buildClientConfig(), fetch: api.fetch } };
}

describe('renderPage', () => {
  it('draws the devices page of the zone in the address from what the page’s loader reads', async () => {
    const devices = [buildDevice({ display_name: 'web-01' }), buildDevice({ display_name: 'db-01', connected: false })];
    const { api, input: page } = input(5, devices, '/console/devices?o=5&page=0&limit=25&sort=name');
    const drawn = await renderPage(page);
    expect(drawn).not.toBeNull();
    expect(drawn!.html).toContain('web-01');
    expect(drawn!.html).toContain('db-01');
    expect(drawn!.html).toMatch(/<table[^>]*aria-rowcount="3"/);
    expect(api.asked.map((u) => u.split('?')[0]).sort()).toEqual(['/api/servergroups', '/api/servers']);
    expect(api.asked.find((u) => u.startsWith('/api/servers?'))).toMatch(/[?&]o=5(&|$)/);
    // The data block holds the page's own queries (the profile, banners and configuration come in theirs).
    const state = JSON.parse(drawn!.state) as ConsolePageState;
    expect(state.queries.map((q) => q.key[0]).sort()).toEqual(['devices', 'servergroups']);
    expect(JSON.stringify(state)).toContain('web-01');
  });

  it('draws each user’s page from that user’s reads only, when pages are drawn at once', async () => {
    const a = input(11, [buildDevice({ display_name: 'alpha-only' })]);
    const b = input(12, [buildDevice({ display_name: 'bravo-only' })]);
    const [pageA, pageB] = await Promise.all([renderPage(a.input), renderPage(b.input)]);
    expect(pageA!.html).toContain('alpha-only');
    expect(pageA!.html + pageA!.state).not.toContain('bravo-only');
    expect(pageB!.html).toContain('bravo-only');
    expect(pageB!.html + pageB!.state).not.toContain('alpha-only');
  });

  it('draws nothing the console would move or show otherwise', async () => {
    const devices = [buildDevice()];
    for (const url of [
      '/console/software?o=3', // not a page it draws
      '/console/devices', // no zone: the console chooses one and moves the address
      '/console/devices?o=4', // not the user's zone
      '/console/devices?org=3', // the old parameter: the console moves it to `o`
      '/console/devices?o=03', // not the zone's own spelling
    ]) {
      expect(await renderPage(input(3, devices, url).input), url).toBeNull();
    }
    // A read that fails: the page shows its own error state once the console asks again.
    expect(await renderPage(input(3, devices, '/console/devices?o=3', '/api/servers').input)).toBeNull();
    // Not a profile.
    expect(await renderPage({ ...input(3, devices).input, profile: { id: 1 } })).toBeNull();
  });
});
