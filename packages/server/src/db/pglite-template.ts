/**
 * A migrated, empty PGlite data directory made by the build (pglite-template.build.ts), copied
 * into an empty data directory on first start. Without it a first start runs `initdb` in WebAssembly and every
 * migration (most of its 6.7 s, bench/README.md); copying the same files takes a tenth of
 * that. The template is keyed by PGlite's version and the migrations (with the extensions they create),
 * so a template from another build is never used: the server then creates the database as
 * before, and the migrations that follow the template's run at start as they always do.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/** Where the build leaves the template (ignored by git): beside the server's sources. */
export const TEMPLATE_DIR = path.join(PACKAGE_ROOT, '.pglite-template');

export const KEY_FILE = 'template-key';
export const DATA = 'data';

function pgliteVersion(): string {
  // The package's own manifest: its exports map does not expose package.json, so walk up from its entry.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** What the template depends on: PGlite's version, the migrations' SQL and their journal. */
export function templateKey(migrationsFolder: string): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${pgliteVersion()}\n`);
  const files = [
    ...readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')),
    path.join('meta', '_journal.json'),
  ].sort();
  for (const file of files) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(path.join(migrationsFolder, file)));
  }
  return hash.digest('hex');
}

export function templateReady(dir: string, key: string): boolean {
  try {
    return readFileSync(path.join(dir, KEY_FILE), 'utf8') === key && existsSync(path.join(dir, DATA, 'PG_VERSION'));
  } catch {
    return false;
  }
}

function isEmptyDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * Fills an empty (or missing) data directory from the template when one of this build is
 * there. Returns whether it did; a directory that holds anything is never touched.
 */
export function seedFromTemplate(dataDir: string, migrationsFolder: string, dir = TEMPLATE_DIR): boolean {
  if (!isEmptyDir(dataDir) || !templateReady(dir, templateKey(migrationsFolder))) return false;
  mkdirSync(dataDir, { recursive: true });
  cpSync(path.join(dir, DATA), dataDir, { recursive: true });
  return true;
}
