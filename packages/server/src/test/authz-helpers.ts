import { sessionCookieName } from '../modules/auth/cookie';
import { createSession } from '../modules/auth/sessions.service';
import type { JsonBody, TestApp } from './app';

/**
 * Helpers for the authorization tests: a session for a user without the ~85 ms password
 * hash check of a real sign-in (the session itself is the real one), and a small JSON client.
 */

/** A session cookie (`name=value`) for `user`, made the way sign-in makes it. */
export async function cookieFor(
  t: TestApp,
  user: { id: number; accountId: number | null; accountRbacRole: string },
): Promise<string> {
  const { token } = await createSession(
    t.ctx,
    { id: user.id, accountId: user.accountId, isGlobalAdmin: user.accountRbacRole === 'global-admin' },
    { ip: '127.0.0.1', userAgent: 'authz-test' },
  );
  return `${sessionCookieName(t.ctx.config)}=${token}`;
}

/** How a test call authenticates: a session cookie, an API key, or nothing. */
export type Caller = { cookie?: string; bearer?: string };

export type Answer = { status: number; body: JsonBody; text: string };

/** One JSON call as `caller`; the body is parsed when it is JSON. */
export async function call(
  t: TestApp,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (caller.cookie) h.cookie = caller.cookie;
  if (caller.bearer) h.authorization = `Bearer ${caller.bearer}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await t.request(path, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: JsonBody = undefined;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, text };
}

/** A bound client for one caller. */
export function clientFor(t: TestApp, caller: Caller) {
  return {
    get: (path: string) => call(t, caller, 'GET', path),
    post: (path: string, body?: unknown) => call(t, caller, 'POST', path, body ?? {}),
    put: (path: string, body?: unknown) => call(t, caller, 'PUT', path, body ?? {}),
    del: (path: string) => call(t, caller, 'DELETE', path),
  };
}

/** Runs `tasks` with at most `width` of them at a time. */
export async function inTurns(tasks: (() => Promise<unknown>)[], width: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
}
