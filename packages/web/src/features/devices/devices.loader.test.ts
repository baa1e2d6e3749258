import type { ShouldRevalidateFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildDevice, buildGroup } from '../../test/factories';
import { testQueryClient } from '../../test/render';
import { startTestServer } from '../../test/server';
import { readTableQuery } from '../../ui/table/table-query';
import { DEVICE_FILTERS } from './device-filters';
import { devicesQuery } from './devices.api';
import { onTheWayIn } from '../../app/page-data';
import { deviceListParams, devicesLoader } from './devices.loader';
import { groupsQuery } from '../groups/groups.api';

let server: Awaited<ReturnType<typeof startTestServer>>;
// A server for each test. The API client's address is shared by the files of a worker, and a
// page of another file may still be asking it (for zone 1): the assertions look at zone 4.
beforeEach(async () => {
  server = await startTestServer({
    'GET /api/servers': () => ({ body: { data: [buildDevice({ id: 5 })], size: 1 } }),
    'GET /api/servergroups': () => ({ body: [buildGroup({ id: 3 })] }),
  });
  api.configure({ baseUrl: server.url });
});
afterEach(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const load = (url: string, client = testQueryClient()) =>
  devicesLoader(client)({ request: new Request(url), params: {}, context: undefined } as never).then(() => client);

describe('the devices route’s loader', () => {
  it('puts the page the address asks for, and the zone’s groups, in the cache before the page renders', async () => {
    const address = 'http://127.0.0.1/console/devices?o=4&page=2&limit=50&sort=name:desc&os_family=linux';
    const client = await load(address);
    const params = deviceListParams(readTableQuery(new URL(address).searchParams, DEVICE_FILTERS));
    // The key the page's own query uses, so the page renders the rows at once.
    expect(client.getQueryData(devicesQuery(4, params).queryKey)?.data[0]?.id).toBe(5);
    expect(client.getQueryData(groupsQuery(4).queryKey)?.[0]?.id).toBe(3);
    const list = server.requests.find((r) => r.path === '/api/servers' && r.query.get('o') === '4')!;
    expect(Object.fromEntries(list.query)).toEqual({
      o: '4',
      page: '1',
      limit: '50',
      sort: 'name:desc',
      os_family: 'linux',
    });
  });

  it('asks nothing without a zone (the shell redirects to the address with one)', async () => {
    await load('http://127.0.0.1/console/devices');
    expect(server.requests.filter((r) => !r.query.has('o'))).toEqual([]);
  });

  it('lets the page go on when the list fails: its own query shows the failure', async () => {
    const failing = await startTestServer({});
    api.configure({ baseUrl: failing.url });
    try {
      await expect(load('http://127.0.0.1/console/devices?o=4')).resolves.toBeDefined();
    } finally {
      api.configure({ baseUrl: server.url });
      await failing.close();
    }
  });

  it('runs on the way into the page, not for a new page, sort or filter of the list', () => {
    const args = (from: string, to: string) =>
      ({
        currentUrl: new URL(from, 'http://127.0.0.1'),
        nextUrl: new URL(to, 'http://127.0.0.1'),
        defaultShouldRevalidate: true,
      }) as ShouldRevalidateFunctionArgs;
    expect(onTheWayIn(args('/console/devices?o=4', '/console/devices?o=4&page=2'))).toBe(false);
    expect(onTheWayIn(args('/console/dashboard?o=4', '/console/devices?o=4'))).toBe(true);
  });
});
