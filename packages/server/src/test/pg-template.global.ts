import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { usePostgres } from '../db/client';

/**
 * Vitest's global setup of the server's tests on PostgreSQL (`DATABASE_URL` set): one database
 * migrated once for the whole run, which every test file's database is then created from
 * (`CREATE DATABASE … TEMPLATE`, ~0.1 s) instead of migrating its own (~0.7 s a file). It is
 * dropped when the run ends. Without `DATABASE_URL` it does nothing (PGlite's base is an image
 * each worker keeps, src/test/db.ts).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template database's name, or '' without PostgreSQL. */
    pgTemplate: string;
  }
}

/** `url` with its database replaced by `name`. */
export function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

/** Runs `sql` on `url`'s server (through its own short connection). */
export async function onServer(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.DATABASE_URL;
  project.provide('pgTemplate', '');
  if (!url) return undefined;
  const name = `pw_tpl_${randomBytes(6).toString('hex')}`;
  await onServer(url, `CREATE DATABASE ${name}`);
  // Migrated and closed: a template must have no connection when it is copied.
  await (await usePostgres(withDatabase(url, name))).close();
  project.provide('pgTemplate', name);
  return () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
