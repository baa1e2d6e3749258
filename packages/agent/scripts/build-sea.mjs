#!/usr/bin/env node
// Linux x64 single executable (Node SEA, STACK §4.7): the esbuild bundle as the SEA blob,
// injected into a copy of this Node binary with postject. Inside a SEA require() loads only
// built-ins, which is why the bundle carries everything. `--bundle FILE --out FILE` build
// elsewhere (tests); the defaults are dist/patchwell-agent.cjs → dist/patchwell-agent-linux-x64.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const shown = (file) =>
  path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { bundle: { type: 'string' }, out: { type: 'string' } } });
const bundle = path.resolve(values.bundle ?? path.join(root, 'dist', 'patchwell-agent.cjs'));
const binary = path.resolve(values.out ?? path.join(root, 'dist', 'patchwell-agent-linux-x64'));
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`The SEA build targets linux-x64; this is ${process.platform}-${process.arch}.`);
  process.exit(1);
}
if (!existsSync(bundle)) {
  console.error(`${bundle} is missing: run "npm run build -w @patchwell/agent" first.`);
  process.exit(1);
}

const started = performance.now();
const work = mkdtempSync(path.join(os.tmpdir(), 'patchwell-sea-'));
try {
  const blob = path.join(work, 'sea-prep.blob');
  const seaConfig = path.join(work, 'sea-config.json');
  writeFileSync(
    seaConfig,
    JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: ['ignore', 'ignore', 'inherit'] });
  const postject = createRequire(import.meta.url).resolve('postject/dist/cli.js');
  const tmp = `${binary}.${process.pid}.tmp`;
  copyFileSync(process.execPath, tmp);
  const injected = spawnSync(process.execPath, [postject, tmp, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE], {
    encoding: 'utf8',
  });
  // postject's ELF warnings ("Can't find string offset for section name") are harmless noise.
  const stderr = injected.stderr
    .split('\n')
    .filter((line) => line && !line.includes("Can't find string offset for section name"));
  if (stderr.length) console.error(stderr.join('\n'));
  if (injected.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(`postject failed (exit ${injected.status})`);
  }
  renameSync(tmp, binary);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${shown(binary)}: ${statSync(binary).size} bytes in ${Math.round(performance.now() - started)} ms`);
