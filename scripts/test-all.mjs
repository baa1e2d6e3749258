#!/usr/bin/env node
// `npm test`: every test of the repository, in one command.
//   1. vitest: core unit/property tests, server integration tests (PGlite, or PostgreSQL
//      when DATABASE_URL is set), console component tests;
//   2. the e2e journeys run in Debian's Chromium against `npm start` (which builds the console).
// It ends with a plain "N passed, N failed" line (CI reads it) and writes the same
// figures to test-results/summary.json.
//
// PATCHWELL_TEST_SCOPE=database runs only what depends on the database (the server's
// tests): CI's second pass, on PostgreSQL, repeats those and nothing that would give the
// same answer twice (core, agent and console unit tests, and the browser journeys, which
// the first pass ran against the same server code on the embedded database).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const started = Date.now();

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const databaseOnly = process.env.PATCHWELL_TEST_SCOPE === 'database';
if (process.env.PATCHWELL_TEST_SCOPE && !databaseOnly) {
  console.error(`PATCHWELL_TEST_SCOPE must be "database" or unset, not "${process.env.PATCHWELL_TEST_SCOPE}"`);
  process.exit(2);
}

let passed = 0;
let failed = 0;
const problems = [];

// 1. vitest
const vitestJson = join(out, 'vitest.json');
const vitestCode = run('unit and integration tests', process.execPath, [
  'node_modules/vitest/vitest.mjs',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${vitestJson}`,
  ...(databaseOnly ? ['--project', 'server'] : []),
]);
const v = readJson(vitestJson);
if (v) {
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  // A suite that failed to load has no tests; count it so it cannot pass silently.
  const brokenFiles = (v.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults?.length === 0);
  failed += brokenFiles.length;
  if (vitestCode !== 0 && v.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    problems.push(`vitest exited with ${vitestCode}`);
  }
} else {
  failed += 1;
  problems.push('vitest produced no report');
}

// 2. e2e in Chromium, against the built console served by the server.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (databaseOnly) {
  console.log('\n▷ browser journeys: not in the database-only scope (PATCHWELL_TEST_SCOPE=database)');
} else if (!existsSync(chromium)) {
  failed += 1;
  problems.push(`Chromium not found at ${chromium}: install Debian's chromium package (apt-get install -y chromium)`);
} else {
  // The journeys' server is started the README's way (`npm start`), which builds the console
  // first: a build failure fails the journeys, and the console is not built twice.
  const e2eJson = join(out, 'e2e.json');
  const e2eCode = run('browser journeys', 'npm', ['run', 'test', '-w', '@patchwell/e2e'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
  });
  const e = readJson(e2eJson);
  if (e?.stats) {
    passed += e.stats.expected ?? 0;
    failed += (e.stats.unexpected ?? 0) + (e.stats.flaky ?? 0);
    if (e2eCode !== 0 && !e.stats.unexpected) {
      failed += 1;
      problems.push(`playwright exited with ${e2eCode}`);
    }
  } else {
    failed += 1;
    problems.push('playwright produced no report');
  }
}

const seconds = Math.round((Date.now() - started) / 1000);
writeFileSync(join(out, 'summary.json'), JSON.stringify({ passed, failed, seconds, problems }, null, 2));
for (const p of problems) console.log(`! ${p}`);
console.log(
  `\nTest suite took ${seconds} s${process.env.DATABASE_URL ? ' (PostgreSQL)' : ' (embedded PGlite)'}${databaseOnly ? ', database-only scope' : ''}`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
