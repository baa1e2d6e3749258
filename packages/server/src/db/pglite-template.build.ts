/**
 * Builds the PGlite template (pglite-template.ts) for this build's migrations: a new database,
 * migrated, closed cleanly, then moved into place with its key, so a half-written template is
 * never taken (a crash leaves only a temporary folder). Run by the server's `build` script.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_FOLDER, usePglite } from './client';
import { PGLITE_OPTIONS } from './pglite-options';
import { DATA, KEY_FILE, TEMPLATE_DIR, templateKey, templateReady } from './pglite-template';

export async function buildTemplate(dir = TEMPLATE_DIR): Promise<{ key: string; built: boolean }> {
  const key = templateKey(MIGRATIONS_FOLDER);
  if (templateReady(dir, key)) return { key, built: false };
  mkdirSync(path.dirname(dir), { recursive: true });
  const work = await mkdtemp(`${dir}.tmp-`);
  try {
    const handle = await usePglite(await PGlite.create(path.join(work, DATA), PGLITE_OPTIONS));
    await handle.close();
    writeFileSync(path.join(work, KEY_FILE), key);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  } catch (err) {
    rmSync(work, { recursive: true, force: true });
    throw err;
  }
  return { key, built: true };
}
