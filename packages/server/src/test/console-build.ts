import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes into `dist` the console build's first pages as packages/web/first-pages.plugin.ts
 * does: the login page (signed out) and the devices list, each with its HTML, and their table.
 */
export async function writeFirstPages(dist: string, html: { login: string; devices: string }): Promise<void> {
  await mkdir(path.join(dist, 'first-pages'));
  await writeFile(path.join(dist, 'first-pages', 'devices.html'), html.devices);
  await writeFile(path.join(dist, 'first-pages', 'login.html'), html.login);
  await writeFile(
    path.join(dist, 'first-pages.json'),
    JSON.stringify([
      { pattern: '^/console/?(login/?)?$', html: 'first-pages/login.html', signedOut: true },
      { pattern: '^/console/devices/?$', html: 'first-pages/devices.html' },
    ]),
  );
}
