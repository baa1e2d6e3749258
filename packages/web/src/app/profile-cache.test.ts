import { PROFILE_CACHE_MS } from '@patchwell/core/constants';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../api/client';
import { buildProfile } from '../test/factories';
import { testQueryClient } from '../test/render';
import { startTestServer } from '../test/server';
import { loadShell } from './session';

let server: Awaited<ReturnType<typeof startTestServer>>;
const profileLoads = () => server.requests.filter((r) => r.path === '/api/users/self').length;

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/is-authenticated': () => ({ body: true }),
    'GET /api/users/self': () => ({ body: buildProfile() }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('profile cache', () => {
  it('reuses the profile for 30 minutes and refetches it once it is older', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-03-01T10:00:00Z'));
    const client = testQueryClient();
    const navigate = () => loadShell(new Request('http://127.0.0.1/devices?o=1'), client);

    await navigate();
    expect(profileLoads()).toBe(1);
    vi.setSystemTime(Date.now() + PROFILE_CACHE_MS - 1_000);
    await navigate();
    expect(profileLoads()).toBe(1);
    vi.setSystemTime(Date.now() + 2_000);
    await navigate();
    expect(profileLoads()).toBe(2);
  });
});
