import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema';
import { startTestApp, type TestApp } from '../test/app';
import { cookieFor } from '../test/authz-helpers';
import { buildAccountWithUser } from '../test/factories';
import { startSmtpCapture, type SmtpCapture } from '../test/smtp-capture';

/**
 * Links mailed to people (unlock, invitation) point at PATCHWELL_PUBLIC_URL when it is set,
 * whatever Host the request named; without it, at the request's own origin only when that is
 * this machine (development on loopback). A Host header is the client's to choose: a link
 * built from any other would carry the mailed token to a site the sender picked.
 */

let smtp: SmtpCapture;
let local: TestApp;
let published: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  const mail = { SMTP_URL: smtp.url, MAIL_FROM: 'Patchwell <noreply@patchwell.test>' };
  local = await startTestApp({ env: mail });
  published = await startTestApp({ env: { ...mail, PATCHWELL_PUBLIC_URL: 'https://pw.test' } });
});
afterAll(async () => {
  await local?.close();
  await published?.close();
  await smtp?.close();
});

/** A request over loopback that names `host` in its Host header (fetch always sends the real one). */
function requestAs(
  t: TestApp,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { port } = new URL(t.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          ...headers,
          host,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Five wrong passwords through `host`; returns the locked user's e-mail. */
async function lockThrough(t: TestApp, host: string): Promise<string> {
  const { user } = await buildAccountWithUser(t.db);
  const basic = `Basic ${Buffer.from(`${user.email}:wrong-password`).toString('base64')}`;
  for (let i = 0; i < 5; i++) {
    expect((await requestAs(t, host, 'GET', '/api/users/self', { authorization: basic })).status).toBe(401);
  }
  return user.email;
}

/** An invitation sent through `host` by a global administrator; the answer and the mail's link, if any. */
async function inviteThrough(t: TestApp, host: string, email: string) {
  const { zone, user } = await buildAccountWithUser(t.db, { globalAdmin: true });
  const before = smtp.messages.length;
  const res = await requestAs(
    t,
    host,
    'POST',
    `/api/inviteUser?o=${zone.id}`,
    { cookie: await cookieFor(t, user) },
    {
      email,
      role_id: 2,
    },
  );
  const link =
    res.status === 201
      ? /(\S+\/console\/accept-invite\?token=\S+)/.exec((await smtp.waitFor(email, before)).text)?.[1]
      : undefined;
  return { res, link };
}

describe('links in e-mails without PATCHWELL_PUBLIC_URL', () => {
  it('point at the request’s origin when it is this machine', async () => {
    const host = `localhost:${new URL(local.url).port}`;
    const email = await lockThrough(local, host);
    const unlock = await smtp.waitFor(email, 0);
    expect(unlock.text).toContain(`http://${host}/console/unlock?token=`);

    const { res, link } = await inviteThrough(local, `127.0.0.1:${new URL(local.url).port}`, 'lena@example.test');
    expect(res.status).toBe(201);
    expect(link).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${new URL(local.url).port}/console/accept-invite\\?token=`),
    );
  });

  it('are not built from any other Host: no unlock mail, and an invitation is refused with nothing written', async () => {
    const before = smtp.messages.length;
    const email = await lockThrough(local, 'patchwell.attacker.example');
    // The account is locked, but no token was made and no mail carries one anywhere.
    const [user] = await local.db.select().from(users).where(eq(users.email, email));
    expect(user!.lockedUntil).not.toBeNull();
    expect(user!.unlockTokenHash).toBeNull();
    expect(smtp.messages.slice(before).filter((m) => m.recipients.includes(email))).toEqual([]);

    const { res } = await inviteThrough(local, 'patchwell.attacker.example', 'mallory-target@example.test');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'invitations.public_url_required' });
    expect(await local.db.select().from(users).where(eq(users.email, 'mallory-target@example.test'))).toEqual([]);
  });
});

describe('links in e-mails with PATCHWELL_PUBLIC_URL', () => {
  it('point at the public address, whatever Host the request named', async () => {
    const email = await lockThrough(published, 'patchwell.attacker.example');
    expect((await smtp.waitFor(email, 0)).text).toMatch(/ https:\/\/pw\.test\/console\/unlock\?token=[A-Za-z0-9_-]+\n/);

    const { res, link } = await inviteThrough(published, 'patchwell.attacker.example', 'nora@example.test');
    expect(res.status).toBe(201);
    expect(link).toMatch(/^https:\/\/pw\.test\/console\/accept-invite\?token=[A-Za-z0-9_-]+$/);
  });
});
