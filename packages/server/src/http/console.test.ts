import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { CONSOLE_CONFIG_ELEMENT_ID, CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import { createTestDb } from '../test/db';
import { bodyOf, startTestApp, type TestApp } from '../test/app';
import { writeFirstPages } from '../test/console-build';
import { buildAccountWithUser } from '../test/factories';
import { banners, users } from '../db/schema';
import { eq } from 'drizzle-orm';

let handle: DbHandle;
let dist: string;
let t: TestApp;
/** A script worth compressing (the build leaves files under 1 KiB as they are). */
const BIG = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n');

/** The raw answer to a GET with this Accept-Encoding (fetch would decode it). */
function rawGet(url: string, acceptEncoding: string | null) {
  return new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>((resolve, reject) => {
    const headers = acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding };
    get(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () =>
        resolve({
          encoding: res.headers['content-encoding'],
          vary: res.headers.vary,
          body: Buffer.concat(parts),
        }),
      );
    }).on('error', reject);
  });
}

const CONFIG_BLOCK = new RegExp(`<script type="application/json" id="${CONSOLE_CONFIG_ELEMENT_ID}">(.*?)</script>`);

/** A page as the build wrote it, after checking it carries the client configuration (which it returns apart). */
function withoutConfig(html: string): string {
  expect(html).toMatch(CONFIG_BLOCK);
  return html.replace(CONFIG_BLOCK, '');
}

const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/console/assets/index-AbC123xy.js"></script></body></html>';
/** A first page's copy of index.html, as the build writes it: preloads for its chunks (many, so it is compressed too). */
const DEVICES_HTML = INDEX.replace(
  '<body>',
  `<head>${Array.from({ length: 40 }, (_, i) => `<link rel="modulepreload" crossorigin href="/console/assets/chunk${i}-AbC123xy.js">`).join('')}</head><body>`,
);
const LOGIN_HTML = INDEX.replace(
  '<body>',
  '<head><link rel="modulepreload" crossorigin href="/console/assets/login-AbC123xy.js"></head><body>',
);

beforeAll(async () => {
  handle = await createTestDb();
  dist = await mkdtemp(path.join(os.tmpdir(), 'patchwell-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-AbC123xy.js'), 'console.log("console")');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dist, 'assets', 'app-Q1w2e3r4.js'), BIG);
  await writeFirstPages(dist, { login: LOGIN_HTML, devices: DEVICES_HTML });
  // The build's own step writes the compressed copies.
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../../../web/scripts/precompress.mjs'), dist]);
  t = await startTestApp({ db: handle, config: { webDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  await handle.close();
  await rm(dist, { recursive: true, force: true });
});

describe('the console under /console/', () => {
  it('serves index.html for deep links, never cached without revalidation', async () => {
    for (const pathname of ['/console/deep/link?o=3', '/console/devices/123', '/console/logins']) {
      const res = await t.request(pathname);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(withoutConfig(await res.text())).toBe(INDEX);
    }
  });

  it('serves a first page the copy of index.html that preloads its chunks, compressed where it is worth it', async () => {
    for (const [pathname, html] of [
      ['/console/', LOGIN_HTML],
      ['/console/login', LOGIN_HTML],
      ['/console/login/', LOGIN_HTML],
      ['/console/devices?o=3', DEVICES_HTML],
    ] as const) {
      const res = await t.request(pathname);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(withoutConfig(await res.text())).toBe(html);
    }
    const br = await rawGet(`${t.url}/console/devices?o=3`, 'gzip, br');
    expect(br.encoding).toBe('br');
    expect(br.vary).toMatch(/accept-encoding/i);
    expect(withoutConfig(brotliDecompressSync(br.body).toString())).toBe(DEVICES_HTML);
    const gz = await rawGet(`${t.url}/console/login`, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(withoutConfig(gunzipSync(gz.body).toString())).toBe(LOGIN_HTML);
  });

  it('carries the client configuration on every page, as GET /api/shared/js/config answers it', async () => {
    const config = await bodyOf(await t.request('/api/shared/js/config?json=true'));
    for (const pathname of ['/console/login', '/console/devices?o=3', '/console/deep/link']) {
      const html = await (await t.request(pathname)).text();
      const block = CONFIG_BLOCK.exec(html)![1]!;
      expect(JSON.parse(block)).toEqual(config);
      // Before </body>, after the page's own markup.
      expect(html.indexOf(block)).toBeGreaterThan(html.indexOf('<div id="root">'));
    }
  });

  it('answers a page the browser holds already with 304, and a page of another build in full', async () => {
    const first = await t.request('/console/login');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request('/console/login', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await t.request('/console/login', { headers: { 'if-none-match': '"an-older-build"' } });
    expect(other.status).toBe(200);
    expect(withoutConfig(await other.text())).toBe(LOGIN_HTML);
    // Each page has its own.
    expect((await t.request('/console/devices?o=3')).headers.get('etag')).not.toBe(etag);
  });

  it('serves hashed assets with long immutable caching', async () => {
    const res = await t.request('/console/assets/index-AbC123xy.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('sends the build’s Brotli or gzip copy to a browser that accepts it, else the file', async () => {
    const url = `${t.url}/console/assets/app-Q1w2e3r4.js`;
    const br = await rawGet(url, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(br.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(BIG.length / 3);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG);
    const gz = await rawGet(url, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG);
    const plain = await rawGet(url, null);
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG);
  });

  it('revalidates unhashed files', async () => {
    const res = await t.request('/console/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset with 404, not with the HTML page', async () => {
    const res = await t.request('/console/assets/gone-12345678.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('redirects / to the login page and /console to /console/', async () => {
    const root = await t.request('/', { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/console/login');
    const bare = await t.request('/console', { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
  });

  it('explains how to build the console when it is missing', async () => {
    const unbuilt = await startTestApp({ db: handle, config: { webDistDir: path.join(dist, 'missing') } });
    try {
      const res = await unbuilt.request('/console/login');
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('npm run build');
    } finally {
      await unbuilt.close();
    }
  });
});

describe('a signed-in page opened by address', () => {
  const PROFILE_BLOCK = new RegExp(
    `<script type="application/json" id="${CONSOLE_PROFILE_ELEMENT_ID}">(.*?)</script></body>`,
  );
  let cookie: string;
  let zoneId: number;
  beforeAll(async () => {
    // A name that would close the element if it were written into the page as it is.
    const { user, zone } = await buildAccountWithUser(handle.db);
    zoneId = zone.id;
    await handle.db.update(users).set({ firstname: '</script><script>alert(1)</script>' }).where(eq(users.id, user.id));
    await handle.db.insert(banners).values({
      message: 'Maintenance tonight </script>',
      messagetype: 'maintenance',
      startsAt: new Date(t.clock.now().getTime() - 60_000),
    });
    ({ cookie } = await t.signIn(user.email, user.password));
  });

  it('comes with the user’s profile for the zone asked and the banners, as the API answers them, never cached', async () => {
    const res = await t.request(`/console/devices?o=${zoneId}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(withoutConfig(html.replace(PROFILE_BLOCK, '</body>'))).toBe(DEVICES_HTML);
    const block = PROFILE_BLOCK.exec(html)![1]!;
    expect(block).not.toContain('</script>');
    const self = await bodyOf(await t.request(`/api/users/self?o=${zoneId}`, { headers: { cookie } }));
    const active = await bodyOf(await t.request('/api/banners', { headers: { cookie } }));
    expect(active).toEqual([expect.objectContaining({ message: 'Maintenance tonight </script>' })]);
    expect(JSON.parse(block)).toEqual({ o: zoneId, profile: self, banners: active });
    expect(self.firstname).toBe('</script><script>alert(1)</script>');
  });

  it('sends it on deep links too, compressed for a browser that accepts gzip', async () => {
    const res = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      get(`${t.url}/console/software?o=${zoneId}`, { headers: { cookie, 'accept-encoding': 'gzip' } }, (r) => {
        const parts: Buffer[] = [];
        r.on('data', (part: Buffer) => parts.push(part));
        r.on('end', () => resolve({ encoding: r.headers['content-encoding'], body: Buffer.concat(parts) }));
      }).on('error', reject);
    });
    expect(res.encoding).toBe('gzip');
    const html = gunzipSync(res.body).toString();
    expect(JSON.parse(PROFILE_BLOCK.exec(html)![1]!).o).toBe(zoneId);
    expect(withoutConfig(html.replace(PROFILE_BLOCK, '</body>'))).toBe(INDEX);
  });

  it('comes without one when the session is not valid, the zone is malformed, or the page is a signed-out one', async () => {
    for (const [pathname, headers] of [
      ['/console/devices?o=1', {}],
      ['/console/devices?o=1', { cookie: 'pw_session=not-a-session' }],
      [`/console/devices?o=abc`, { cookie }],
      ['/console/login', { cookie }],
    ] as const) {
      const res = await t.request(pathname, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).not.toContain(CONSOLE_PROFILE_ELEMENT_ID);
    }
  });
});

describe('a build whose first-pages table names a file outside it', () => {
  it('stops the start instead of serving a blank page', async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), 'patchwell-dist-'));
    try {
      await writeFile(path.join(broken, 'index.html'), INDEX);
      for (const html of ['first-pages/gone.html', '../index.html']) {
        await writeFile(path.join(broken, 'first-pages.json'), JSON.stringify([{ pattern: '^/console/login$', html }]));
        await expect(startTestApp({ db: handle, config: { webDistDir: broken } })).rejects.toThrow(
          /is not a file of the build/,
        );
      }
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });
});
