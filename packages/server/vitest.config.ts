import { configDefaults, defineProject } from 'vitest/config';

/**
 * Files whose tests give the same answer whatever `DATABASE_URL` names: PGlite's own thread,
 * the server started as `npm start` does (on PGlite, with `DATABASE_URL` cleared), and a
 * PostgreSQL restart on a cluster the test starts itself. CI's second pass, on PostgreSQL
 * (`PATCHWELL_TEST_SCOPE=database`), leaves them to the first: 60 s of its workers' time.
 */
const SAME_ON_EVERY_DATABASE = [
  'src/db/pglite-thread.test.ts',
  'src/db/pglite-template.test.ts',
  'src/main.test.ts',
  'src/agent-api/db-restart.test.ts',
];

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.PATCHWELL_TEST_SCOPE === 'database' ? SAME_ON_EVERY_DATABASE : []),
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files in one worker share the migrated PGlite base (src/test/db.ts), so each file
    // pays a ~1 s clone instead of a ~3 s cold start. Every file still gets its own database.
    isolate: false,
    // On PostgreSQL, one migrated template for the run: each file's database is a copy of it.
    // On PGlite, one bundle of the database's thread for the run.
    globalSetup: ['src/test/pg-template.global.ts', 'src/test/pglite-worker.global.ts'],
  },
});
