/** The build's migrated PGlite template and a first start from it (PGlite only: PostgreSQL has no data directory of ours). */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDb } from './client';
import { buildTemplate } from './pglite-template.build';
import { KEY_FILE, seedFromTemplate, templateKey } from './pglite-template';
import { queryRows } from './raw';

let work: string;
let template: string;
beforeAll(async () => {
  if (process.env.DATABASE_URL) return;
  work = mkdtempSync(path.join(tmpdir(), 'pw-template-'));
  template = path.join(work, 'template');
  await buildTemplate(template);
}, 120_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const migrationCount = () => readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql')).length;

// The PostgreSQL pass runs the same PGlite code again: once is enough.
describe.skipIf(process.env.DATABASE_URL)('the PGlite template', () => {
  it('is keyed by this build: built again only when its key changes', async () => {
    expect(await buildTemplate(template)).toEqual({ key: templateKey(MIGRATIONS_FOLDER), built: false });
  });

  it('gives an empty data directory every migration, and the server opens it as its own', async () => {
    const dataDir = path.join(work, 'first-start');
    expect(seedFromTemplate(dataDir, MIGRATIONS_FOLDER, template)).toBe(true);
    const handle = await openDb({ pgliteDataDir: dataDir });
    try {
      const [applied] = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied!.n).toBe(migrationCount());
      const [zones] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from organizations`);
      expect(zones!.n).toBe(0);
      // A write lands in the copy, never in the template.
      await handle.db.execute(sql`create table first_start_probe (x int)`);
    } finally {
      await handle.close();
    }
    expect(seedFromTemplate(path.join(work, 'second'), MIGRATIONS_FOLDER, template)).toBe(true);
    const again = await openDb({ pgliteDataDir: path.join(work, 'second') });
    try {
      const rows = await queryRows<{ t: string | null }>(
        again.db,
        sql`select to_regclass('first_start_probe')::text as t`,
      );
      expect(rows[0]!.t).toBeNull();
    } finally {
      await again.close();
    }
  }, 120_000);

  it('never touches a data directory that holds anything', () => {
    const dataDir = path.join(work, 'holds-a-file');
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, 'notes.txt'), 'mine');
    expect(seedFromTemplate(dataDir, MIGRATIONS_FOLDER, template)).toBe(false);
    expect(readdirSync(dataDir)).toEqual(['notes.txt']);
  });

  it('is not used when it was built for other migrations or another PGlite', () => {
    const stale = path.join(work, 'stale-template');
    cpSync(template, stale, { recursive: true });
    writeFileSync(path.join(stale, KEY_FILE), 'another build');
    expect(seedFromTemplate(path.join(work, 'from-stale'), MIGRATIONS_FOLDER, stale)).toBe(false);
    expect(seedFromTemplate(path.join(work, 'from-missing'), MIGRATIONS_FOLDER, path.join(work, 'none'))).toBe(false);
  });
});
