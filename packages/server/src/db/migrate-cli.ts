/**
 * `npm run db:migrate`: applies pending migrations to the configured database and exits.
 * The server also migrates at start-up; this is for running it as a separate deploy step.
 */
import { ConfigError, loadConfig } from '../config';
import { openDb } from './client';

try {
  const config = loadConfig();
  const started = Date.now();
  const handle = await openDb(config);
  await handle.close();
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${config.pgliteDataDir})`;
  console.log(`Migrations applied to ${where} in ${Date.now() - started} ms.`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exitCode = 1;
}
