// `npm run build`: the server as one file, dist/main.mjs, which `npm start` runs with plain node
// (`--outfile <file>`, relative to the package, writes it elsewhere in it, as main.test.ts does;
// the agent's scripts/build.mjs takes the same option).
// Run through tsx the server kept tsx's loader thread and every module's transformed source and
// inline source map in memory: 291 MB of RSS idle against 179 MB for the bundle (issue 16).
// Packages from npm stay outside the bundle (node loads them from node_modules, native addons and
// PGlite's WebAssembly included); the workspace's own packages (TypeScript sources) go in it.
// Paths the server reads at run time are found from its package folder (src/package-root.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  .filter((name) => !name.startsWith('@patchwell/'))
  .flatMap((name) => [name, `${name}/*`]);

const { values } = parseArgs({ options: { outfile: { type: 'string', default: 'dist/main.mjs' } } });

const outfile = new URL(`../${values.outfile}`, import.meta.url).pathname;
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  // For a reader of a stack trace (node --enable-source-maps); not loaded otherwise.
  sourcemap: 'external',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: [new URL('../src/main.ts', import.meta.url).pathname], outfile });
// The thread that runs PGlite (decision 0029), which the server starts from beside its own file.
await build({
  ...common,
  entryPoints: [new URL('../src/db/pglite-worker.ts', import.meta.url).pathname],
  outfile: path.join(path.dirname(outfile), 'pglite-worker.mjs'),
});
