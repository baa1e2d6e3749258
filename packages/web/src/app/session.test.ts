import { redirect } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../api/client';
import { testQueryClient } from '../test/render';
import { startTestServer } from '../test/server';
import { freshRedirect, signOut } from './session';

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
