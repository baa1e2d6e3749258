import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackUrl } from '@patchwell/core/devices/devices.schema';
import { buildZoneWithKey } from '../../test/agents';
import { startTestApp, type TestApp } from '../../test/app';

/** Issue 10 defect 12: install commands use PATCHWELL_PUBLIC_URL, and say when the address is loopback. */

let plain: TestApp;
let published: TestApp;

beforeAll(async () => {
  plain = await startTestApp();
  published = await startTestApp({ env: { PATCHWELL_PUBLIC_URL: 'https://patch.example.com' } });
});
afterAll(async () => {
  await plain.close();
  await published.close();
});

describe('GET /api/info', () => {
  it('flags a loopback server address (no PATCHWELL_PUBLIC_URL, console on 127.0.0.1)', async () => {
    const z = await buildZoneWithKey(plain);
    const res = await z.admin.get(`/api/info?o=${z.zone.id}`);
    expect(res.status).toBe(200);
    expect(res.body.server_url).toBe(plain.url);
    expect(res.body.server_url_is_loopback).toBe(true);
    expect(res.body.install.linux).toContain(plain.url);
  });

  it('uses PATCHWELL_PUBLIC_URL in every install command', async () => {
    const z = await buildZoneWithKey(published);
    const res = await z.admin.get(`/api/info?o=${z.zone.id}`);
    expect(res.body.server_url).toBe('https://patch.example.com');
    expect(res.body.server_url_is_loopback).toBe(false);
    for (const os of ['linux', 'mac', 'windows']) {
      expect(res.body.install[os]).toContain('https://patch.example.com');
      expect(res.body.install[os]).not.toContain('127.0.0.1');
    }
  });
});

describe('isLoopbackUrl', () => {
  it('knows localhost, 127.0.0.0/8, ::1 and 0.0.0.0 from other addresses', () => {
    for (const url of [
      'http://localhost:8080',
      'http://127.0.0.1',
      'http://127.1.2.3:9',
      'http://[::1]:8080',
      'http://0.0.0.0',
      'http://app.localhost',
    ]) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, true]);
    }
    for (const url of ['https://patch.example.com', 'http://10.0.0.5:8080', 'http://[2001:db8::1]', 'not a url']) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, false]);
    }
  });
});
