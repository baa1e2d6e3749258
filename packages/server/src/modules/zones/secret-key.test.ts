import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { createTestDb } from '../../test/db';
import { startTestApp } from '../../test/app';
import { clientFor, cookieFor } from '../../test/authz-helpers';
import { buildAccountWithUser } from '../../test/factories';
import { decryptSecret, encryptSecret } from './access-key';
import { SECRET_KEY_FILE, secretKey } from './secret-key';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('PATCHWELL_SECRET_KEY', () => {
  it('accepts 32 bytes in hex or base64 and names the variable otherwise', () => {
    const key = randomBytes(32);
    expect(loadConfig({ PATCHWELL_SECRET_KEY: key.toString('hex') }).secretKey).toEqual(key);
    expect(loadConfig({ PATCHWELL_SECRET_KEY: key.toString('base64') }).secretKey).toEqual(key);
    expect(loadConfig({ PATCHWELL_SECRET_KEY: key.toString('base64url') }).secretKey).toEqual(key);
    expect(loadConfig({}).secretKey).toBeUndefined();
    for (const bad of ['short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64')]) {
      expect(() => loadConfig({ PATCHWELL_SECRET_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ PATCHWELL_SECRET_KEY: bad })).toThrow(
        'PATCHWELL_SECRET_KEY must be 32 bytes written as 64 hex digits or in base64.',
      );
    }
  });
});

describe('secretKey', () => {
  it('creates DATA_DIR/secret.key with mode 0600 on first use and reads it back afterwards', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pw-secret-'));
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir });
    const [a, b] = await Promise.all([secretKey(config), secretKey(config)]);
    expect(a).toHaveLength(32);
    expect(b).toEqual(a);
    const file = path.join(dir, SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toEqual(a);
  });

  it('prefers PATCHWELL_SECRET_KEY and keeps a memory:// key in memory', async () => {
    const key = randomBytes(32);
    expect(await secretKey(loadConfig({ DATA_DIR: 'memory://', PATCHWELL_SECRET_KEY: key.toString('hex') }))).toEqual(
      key,
    );
    const memory = loadConfig({ DATA_DIR: 'memory://' });
    expect(await secretKey(memory)).toEqual(await secretKey(memory));
  });
});

describe('encryptSecret', () => {
  it('round-trips, uses a fresh IV each time and refuses another key or altered text', () => {
    const key = randomBytes(32);
    const a = encryptSecret('pwz_secret', key);
    expect(encryptSecret('pwz_secret', key)).not.toBe(a);
    expect(decryptSecret(a, key)).toBe('pwz_secret');
    expect(decryptSecret(a, randomBytes(32))).toBeUndefined();
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(decryptSecret(parts.join('.'), key)).toBeUndefined();
  });
});

describe('GET /api/orgs/{id}/access-key after the secret key changed', () => {
  it('answers 409 zones.access_key_unreadable, and a rotation recovers', async () => {
    const db = await createTestDb();
    const first = await startTestApp({ db, env: { PATCHWELL_SECRET_KEY: randomBytes(32).toString('hex') } });
    const { zone, user } = await buildAccountWithUser(first.db, { roleId: 1 });
    const before = await clientFor(first, { cookie: await cookieFor(first, user) }).get(
      `/api/orgs/${zone.id}/access-key`,
    );
    expect(before.status).toBe(200);
    await first.close();

    const second = await startTestApp({ db, env: { PATCHWELL_SECRET_KEY: randomBytes(32).toString('hex') } });
    try {
      const client = clientFor(second, { cookie: await cookieFor(second, user) });
      const unreadable = await client.get(`/api/orgs/${zone.id}/access-key`);
      expect(unreadable.status).toBe(409);
      expect(unreadable.body.code).toBe('zones.access_key_unreadable');
      const rotated = await client.post(`/api/orgs/${zone.id}/access-key/rotate`);
      expect((await client.get(`/api/orgs/${zone.id}/access-key`)).body.access_key).toBe(rotated.body.access_key);
    } finally {
      await second.close();
      await db.close();
    }
  });
});
