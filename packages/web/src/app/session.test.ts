import { redirect } from 'react-router';
import { describe, expect, it } from 'vitest';
import { freshRedirect } from './session';

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
