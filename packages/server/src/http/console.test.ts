import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { createTestDb } from '../test/db';
import { startTestApp, type TestApp } from '../test/app';

let handle: DbHandle;
let dist: string;
let t: TestApp;
const INDEX =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/console/assets/index-AbC123xy.js"></script></body></html>';

beforeAll(async () => {
  handle = await createTestDb();
  dist = await mkdtemp(path.join(os.tmpdir(), 'patchwell-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX);
  await writeFile(path.join(dist, 'assets', 'index-AbC123xy.js'), 'console.log("console")');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await startTestApp({ db: handle, config: { webDistDir: dist } });
});
afterAll(async () => {
  await t.close();
  await handle.close();
  await rm(dist, { recursive: true, force: true });
});

describe('the console under /console/', () => {
  it('serves index.html for deep links, never cached without revalidation', async () => {
    for (const pathname of ['/console/', '/console/login', '/console/deep/link?o=3', '/console/devices/123']) {
      const res = await t.request(pathname);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves hashed assets with long immutable caching', async () => {
    const res = await t.request('/console/assets/index-AbC123xy.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
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
