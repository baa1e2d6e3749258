import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZOutboxPage } from '@patchwell/core/mail/outbox.schema';
import { ConfigError, loadConfig } from '../../config';
import { createLogger } from '../../logger';
import { bodyOf, startTestApp, type TestApp } from '../../test/app';
import { createTestClock } from '../../test/clock';
import { createTestDb } from '../../test/db';
import type { DbHandle } from '../../db/client';
import { createMailer } from './mail.transport';
import { buildAccount, buildAccountWithUser, buildUser, buildZone } from '../../test/factories';

let handle: DbHandle;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  handle = await createTestDb();
  t = await startTestApp({
    db: handle,
    logger: createLogger('info', { destination: { write: (line: string) => void logLines.push(line) } }),
  });
});
afterAll(async () => {
  await t.close();
  await handle.close();
});

function send(app: TestApp, method: string, path: string, options: { cookie?: string; body?: unknown } = {}) {
  return app.request(path, {
    method,
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

const tokenIn = (text: string) => /accept-invite\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('mail without SMTP', () => {
  it('keeps the invitation in the outbox for the account’s global administrators, and logs no secret', async () => {
    const { account, zone, user: ga } = await buildAccountWithUser(t.db);
    const cookie = (await t.signIn(ga.email, ga.password)).cookie;
    const invited = await send(t, 'POST', `/api/inviteUser?o=${zone.id}`, {
      cookie,
      body: { email: 'waiting@example.test', role_id: 2 },
    });
    expect(invited.status).toBe(201);

    const res = await send(t, 'GET', `/api/accounts/${account.id}/outbox`, { cookie });
    expect(res.status).toBe(200);
    const page = ZOutboxPage.parse(await bodyOf(res));
    expect(page).toMatchObject({ size: 1, page: 0, limit: 25 });
    const [message] = page.data;
    expect(message).toMatchObject({ to: 'waiting@example.test', sent_at: null, error: null });
    const token = tokenIn(message!.text);
    expect(token).toHaveLength(43);
    // The link works: the outbox is how an administrator passes it on.
    expect((await send(t, 'GET', `/api/invitations/${token}`)).status).toBe(200);
    await send(t, 'POST', `/api/invitations/${token}/accept`, {
      body: {
        firstname: 'W',
        lastname: 'Aiting',
        password: 'waiting-for-the-mail-77',
        password_confirmation: 'waiting-for-the-mail-77',
      },
    });

    const logs = logLines.join('');
    expect(logs).toContain('the message waits in the outbox');
    expect(logs).toContain(`"outboxId":${message!.id}`);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain('accept-invite');
    expect(logs).not.toContain('waiting-for-the-mail-77');
  });

  it('is readable by global administrators of that account only', async () => {
    const account = await buildAccount(t.db);
    const zone = await buildZone(t.db, { accountId: account.id });
    const zoneAdmin = await buildUser(t.db, { accountId: account.id, zones: { [zone.id]: 1 } });
    const zoneAdminCookie = (await t.signIn(zoneAdmin.email, zoneAdmin.password)).cookie;
    expect((await send(t, 'GET', `/api/accounts/${account.id}/outbox`, { cookie: zoneAdminCookie })).status).toBe(403);

    const stranger = await buildAccountWithUser(t.db);
    const strangerCookie = (await t.signIn(stranger.user.email, stranger.user.password)).cookie;
    expect((await send(t, 'GET', `/api/accounts/${account.id}/outbox`, { cookie: strangerCookie })).status).toBe(404);
    expect((await send(t, 'GET', `/api/accounts/${account.id}/outbox`)).status).toBe(401);
  });

  it('pages the outbox, latest first', async () => {
    const { account, zone, user: ga } = await buildAccountWithUser(t.db);
    const cookie = (await t.signIn(ga.email, ga.password)).cookie;
    for (const name of ['first', 'second', 'third']) {
      await send(t, 'POST', `/api/inviteUser?o=${zone.id}`, {
        cookie,
        body: { email: `${name}@example.test`, role_id: 2 },
      });
      t.clock.advance(1000);
    }
    const page = await bodyOf(await send(t, 'GET', `/api/accounts/${account.id}/outbox?page=1&limit=1`, { cookie }));
    expect(page).toMatchObject({ size: 3, page: 1, limit: 1 });
    expect(page.data.map((m: { to: string }) => m.to)).toEqual(['second@example.test']);
    expect((await send(t, 'GET', `/api/accounts/${account.id}/outbox?limit=701`, { cookie })).status).toBe(400);
  });
});

describe('mail when the SMTP relay fails', () => {
  it('records the error in the outbox and still answers the invitation', async () => {
    // A port that refuses connections: bound, then closed.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as AddressInfo;
        probe.close(() => resolve(p));
      });
    });
    const failing = await startTestApp({
      db: handle,
      clock: createTestClock(),
      env: { SMTP_URL: `smtp://user:secret-pass@127.0.0.1:${port}` },
    });
    try {
      const { account, zone, user: ga } = await buildAccountWithUser(failing.db);
      const cookie = (await failing.signIn(ga.email, ga.password)).cookie;
      const res = await send(failing, 'POST', `/api/inviteUser?o=${zone.id}`, {
        cookie,
        body: { email: 'bounce@example.test', role_id: 2 },
      });
      expect(res.status).toBe(201);
      const page = await bodyOf(await send(failing, 'GET', `/api/accounts/${account.id}/outbox`, { cookie }));
      expect(page.data[0]).toMatchObject({ to: 'bounce@example.test', sent_at: null });
      expect(page.data[0].error).toMatch(/ECONNREFUSED|connect/i);
      expect(page.data[0].error).not.toContain('secret-pass');
    } finally {
      await failing.close();
    }
  });
});

describe('mail configuration', () => {
  it('reads SMTP_URL and MAIL_FROM; the sender defaults to the public host', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: undefined, mailFrom: 'Patchwell <no-reply@localhost>' });
    expect(loadConfig({ PATCHWELL_PUBLIC_URL: 'https://patch.example.com' }).mailFrom).toBe(
      'Patchwell <no-reply@patch.example.com>',
    );
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', MAIL_FROM: 'Ops <ops@example.com>' });
    expect(config).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', mailFrom: 'Ops <ops@example.com>' });
    expect(createMailer(config)).toBeDefined();
    expect(createMailer(loadConfig({}))).toBeUndefined();
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, without echoing it', () => {
    let error: unknown;
    try {
      loadConfig({ SMTP_URL: 'http://u:hunter2@mail.example.com' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('SMTP_URL must be an smtp:// or smtps:// URL');
    expect((error as ConfigError).message).not.toContain('hunter2');
  });
});
