import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PROFILE_ELEMENT_ID, CONSOLE_RENDERED_ELEMENT_ID } from '@patchwell/core/constants';
import type { DbHandle } from '../db/client';
import { createTestDb } from '../test/db';
import { startTestApp, type TestApp } from '../test/app';
import { writeFirstPages } from '../test/console-build';
import { buildAccountWithUser } from '../test/factories';
import { drawableHtml } from './console-render';

/** A first page as the build writes it: module scripts, its chunks preloaded, its styles preloaded for the scripts to apply. */
const DEVICES_HTML =
  '<!doctype html><html><head>' +
  '<script type="module" crossorigin src="/console/assets/react-AbC123xy.js"></script>' +
  '<script type="module" crossorigin src="/console/assets/app-AbC123xy.js"></script>' +
  '<link rel="stylesheet" crossorigin href="/console/assets/app-AbC123xy.css">' +
  '<link rel="modulepreload" crossorigin href="/console/assets/DevicesPage-AbC123xy.js">' +
  '<link rel="preload" as="style" crossorigin href="/console/assets/rest-AbC123xy.css">' +
  '</head><body><div id="root"></div></body></html>';

/**
 * A stand-in for the console's page renderer (web/src/ssr/render-page.tsx, tested on its own):
 * draws /console/devices with what it was handed and what it read through `fetch`, throws for
 * `?fail`, draws nothing for `?none`.
 */
const RENDERER = `
export async function renderPage({ url, profile, banners, config, fetch }) {
  if (url.includes('fail')) throw new Error('the drawing failed');
  if (url.includes('none')) return null;
  const self = await fetch('/api/users/self?o=' + new URL(url, 'http://x').searchParams.get('o'));
  const list = await fetch('/api/servers?o=999999');
  const html = '<main data-user="' + profile.email + '" data-self="' + self.status + '" data-other-zone="' + list.status + '">drawn</main>';
  return { html, state: JSON.stringify({ banners, version: config.version, note: '</script>' }) };
}
`;

let handle: DbHandle;
let dist: string;
let ssr: string;
let t: TestApp;
let cookie: string;
let email: string;
let zoneId: number;

beforeAll(async () => {
  handle = await createTestDb();
  dist = await mkdtemp(path.join(os.tmpdir(), 'patchwell-dist-'));
  ssr = await mkdtemp(path.join(os.tmpdir(), 'patchwell-ssr-'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  await writeFirstPages(dist, { login: DEVICES_HTML, devices: DEVICES_HTML });
  await writeFile(path.join(ssr, 'render-page.mjs'), RENDERER);
  t = await startTestApp({ db: handle, config: { webDistDir: dist, webSsrDir: ssr } });
  const { user, zone } = await buildAccountWithUser(handle.db);
  ({ email } = user);
  zoneId = zone.id;
  ({ cookie } = await t.signIn(user.email, user.password));
});

afterAll(async () => {
  await t?.close();
  await handle?.close();
  await rm(dist, { recursive: true, force: true });
  await rm(ssr, { recursive: true, force: true });
});

const ROOT = /<div id="root">(.*?)<\/div><script/;
const block = (html: string, id: string) =>
  new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(html)?.[1];

describe('a signed-in first page the console can draw', () => {
  it('comes drawn, with the data it was drawn from, its styles applied and its scripts held until it is painted', async () => {
    const res = await t.request(`/console/devices?o=${zoneId}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    // Drawn as the user: the renderer's reads went through the app with the page's session,
    // and another zone's list is refused to it as to the user.
    expect(ROOT.exec(html)?.[1]).toBe(`<main data-user="${email}" data-self="200" data-other-zone="404">drawn</main>`);
    const state = block(html, CONSOLE_RENDERED_ELEMENT_ID)!;
    expect(state).not.toContain('</script>');
    expect(JSON.parse(state)).toEqual({ banners: [], version: expect.any(String), note: '</script>' });
    // The profile block as on any signed-in page: the console's shell loader reads it.
    expect(JSON.parse(block(html, CONSOLE_PROFILE_ELEMENT_ID)!).o).toBe(zoneId);
    const [head, template] = [
      html.split('<template')[0]!,
      /<template id="pw-scripts">(.*?)<\/template>/.exec(html)![1]!,
    ];
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/console/assets/rest-AbC123xy.css">');
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/console/assets/app-AbC123xy.css">');
    expect(head).not.toMatch(/modulepreload|<script/);
    expect(template).toBe(
      '<script type="module" crossorigin src="/console/assets/react-AbC123xy.js"></script>' +
        '<script type="module" crossorigin src="/console/assets/app-AbC123xy.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/console/assets/DevicesPage-AbC123xy.js">',
    );
    expect(html).toContain('</template><script type="module" src="/console/after-paint.js"></script></head>');
  });

  it('goes as the console draws it when the renderer draws nothing for it, or fails', async () => {
    for (const query of ['none=1', 'fail=1']) {
      const res = await t.request(`/console/devices?o=${zoneId}&${query}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain(CONSOLE_RENDERED_ELEMENT_ID);
      expect(html).not.toContain('<template');
      expect(html).toContain('<link rel="modulepreload" crossorigin href="/console/assets/DevicesPage-AbC123xy.js">');
      expect(block(html, CONSOLE_PROFILE_ELEMENT_ID)).toBeDefined();
    }
  });

  it('is not drawn without a session, nor when it is a signed-out page', async () => {
    for (const [pathname, headers] of [
      [`/console/devices?o=${zoneId}`, {}],
      [`/console/devices?o=${zoneId}`, { cookie: 'pw_session=not-a-session' }],
      ['/console/login', { cookie }],
    ] as const) {
      const html = await (await t.request(pathname, { headers })).text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toContain(CONSOLE_RENDERED_ELEMENT_ID);
    }
  });
});

describe('drawableHtml', () => {
  it('leaves a page without module scripts as it is', () => {
    const html = '<html><head><link rel="stylesheet" href="/a.css"></head><body></body></html>';
    expect(drawableHtml(html)).toBe(html);
  });
});
