import { redirect } from 'react-router';
import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { api } from '../api/client';
import { PROFILE_QUERY_KEY } from '../features/auth/session.api';
import { BANNERS_QUERY_KEY } from '../features/shell/shell.api';
import { sendWithPage } from '../test/data-block';
import { buildProfile } from '../test/factories';
import { testQueryClient } from '../test/render';
import { startTestServer } from '../test/server';
import { freshRedirect, loadShell, signOut } from './session';

describe('freshRedirect', () => {
  it('gives each loader its own copy of the shell’s redirect, with the same target', () => {
    const shared = redirect('/settings/users?o=1');
    const first = freshRedirect(shared) as Response;
    const second = freshRedirect(shared) as Response;
    expect(first).not.toBe(shared);
    expect(second).not.toBe(first);
    // The router rewrites one copy's Location (basename): the others keep theirs.
    first.headers.set('Location', `/console${first.headers.get('Location')}`);
    expect(second.headers.get('Location')).toBe('/settings/users?o=1');
    expect(shared.headers.get('Location')).toBe('/settings/users?o=1');
    expect(second.status).toBe(302);
  });

  it('passes any other failure through unchanged', () => {
    const error = new Error('network');
    const notFound = new Response(null, { status: 404 });
    expect(freshRedirect(error)).toBe(error);
    expect(freshRedirect(notFound)).toBe(notFound);
  });
});

describe('signOut', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ 'GET /api/logout': () => ({ status: 204 }) });
    api.configure({ baseUrl: server.url });
  });
  afterAll(async () => {
    api.configure({ baseUrl: undefined });
    await server.close();
  });

  // Cleared while the signed-in pages were still mounted, their queries fetched again without a
  // session, and the 401s were taken for an expired session.
  it('ends the session and reaches the login page before it forgets the cached data', async () => {
    const client = testQueryClient();
    client.setQueryData(['banners'], []);
    const seen: { to: string; isCached: boolean; hasLoggedOut: boolean }[] = [];
    await signOut(
      async (to) => {
        const hasLoggedOut = server.requests.some((r) => r.path === '/api/logout');
        // The navigation ends later (the login page's code downloads): the data is still there.
        await new Promise((resolve) => setTimeout(resolve, 0));
        seen.push({ to, isCached: client.getQueryData(['banners']) !== undefined, hasLoggedOut });
      },
      { zoneId: 7 },
      client,
    );
    expect(seen).toEqual([{ to: '/login?o=7', isCached: true, hasLoggedOut: true }]);
    expect(client.getQueryData(['banners'])).toBeUndefined();
  });
});

describe('loadShell', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let signedIn = true;
  let profileAsked: () => void = () => undefined;
  beforeAll(async () => {
    server = await startTestServer({
      // Answers only once the profile has been asked for: the two requests are in flight together.
      'GET /api/users/is-authenticated': async () => {
        await new Promise<void>((resolve) => {
          profileAsked = resolve;
          if (server.requests.some((r) => r.path === '/api/users/self')) resolve();
        });
        return signedIn ? { body: true } : { status: 401, body: { code: 'auth.session_expired' } };
      },
      'GET /api/users/self': () => {
        profileAsked();
        return signedIn ? { body: buildProfile() } : { status: 401, body: { code: 'auth.invalid_credentials' } };
      },
      'GET /api/logout': () => ({ status: 204 }),
    });
    api.configure({ baseUrl: server.url });
  });
  afterAll(async () => {
    api.configure({ baseUrl: undefined });
    await server.close();
  });

  it('asks for the session and the profile at once (one round trip before the page, not two)', async () => {
    signedIn = true;
    const shell = await loadShell(new Request('http://127.0.0.1/devices?o=1'), testQueryClient());
    expect(shell.zoneId).toBe(1);
    expect(shell.profile.orgs.length).toBeGreaterThan(0);
  });

  it('asks nothing when the page came with the profile and banners (server/src/http/console-profile.ts)', async () => {
    signedIn = true;
    server.requests.length = 0;
    const sent = buildProfile({ firstname: 'Sent' });
    const banners = [{ id: 1, message: 'Maintenance tonight', messagetype: 'maintenance' }];
    sendWithPage(CONSOLE_PROFILE_ELEMENT_ID, JSON.stringify({ o: 1, profile: sent, banners }));
    // jsdom records no navigation: the page was loaded from this address.
    const loadedFrom = vi
      .spyOn(performance, 'getEntriesByType')
      .mockReturnValue([{ name: 'http://127.0.0.1/devices?o=1' } as PerformanceEntry]);
    onTestFinished(() => loadedFrom.mockRestore());
    const client = testQueryClient();
    const shell = await loadShell(new Request('http://127.0.0.1/devices?o=1'), client);
    expect(shell.profile).toEqual(sent);
    expect(shell.zoneId).toBe(1);
    expect(client.getQueryData(PROFILE_QUERY_KEY)).toEqual(sent);
    // The shell's banners query finds them in the cache.
    expect(client.getQueryData(BANNERS_QUERY_KEY)).toEqual(banners);
    expect(server.requests).toEqual([]);
  });

  it('goes to login with session-expired when the check fails, whatever the profile answered, without logging out', async () => {
    signedIn = false;
    server.requests.length = 0;
    const outcome = await loadShell(new Request('http://127.0.0.1/devices?o=1'), testQueryClient()).catch(
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).headers.get('Location')).toBe(
      '/login?redirect=%2Fdevices%3Fo%3D1&err=session-expired',
    );
    expect(server.requests.map((r) => r.path)).not.toContain('/api/logout');
  });
});
