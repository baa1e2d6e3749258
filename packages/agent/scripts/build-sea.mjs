#!/usr/bin/env node
// Linux x64 single executable (Node SEA, STACK §4.7): the esbuild bundle as the SEA blob,
// injected into a copy of this Node binary with postject. postject is not a dependency of
// the repository; without it the blob is prepared and the injection step is printed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const bundle = path.join(dist, 'patchwell-agent.cjs');
const blob = path.join(dist, 'sea-prep.blob');
const binary = path.join(dist, 'patchwell-agent-linux-x64');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`The SEA build targets linux-x64; this is ${process.platform}-${process.arch}.`);
  process.exit(1);
}
if (!existsSync(bundle)) {
  console.error('Run "npm run build -w @patchwell/agent" first.');
  process.exit(1);
}

const seaConfig = path.join(dist, 'sea-config.json');
writeFileSync(
  seaConfig,
  JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2),
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });

function findPostject() {
  try {
    return createRequire(import.meta.url).resolve('postject/dist/cli.js');
  } catch {
    return null;
  }
}
const postject = findPostject();
const inject = ['NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE];
if (!postject) {
  console.log(`SEA blob ready: ${blob} (${statSync(blob).size} bytes).
postject is not installed, so the executable was not made. To finish:
  cp "$(command -v node)" ${path.relative(process.cwd(), binary)}
  npx postject ${path.relative(process.cwd(), binary)} ${inject
    .slice(0, 2)
    .map((p) => path.relative(process.cwd(), p))
    .join(' ')} ${inject.slice(2).join(' ')}`);
  process.exit(0);
}
copyFileSync(process.execPath, binary);
execFileSync(process.execPath, [postject, binary, ...inject], { stdio: 'inherit' });
console.log(`${binary}: ${statSync(binary).size} bytes`);
