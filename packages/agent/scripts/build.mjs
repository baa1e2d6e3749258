#!/usr/bin/env node
// The one-file agent: src/main.ts bundled for Node 20+ (CommonJS, so a Node SEA can run it
// too). `--outfile FILE` builds elsewhere (tests); the file is replaced atomically, so a
// server serving dist/patchwell-agent.cjs never reads half a build.
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const shown = (file) =>
  path.relative(process.cwd(), file).startsWith('..') ? file : path.relative(process.cwd(), file);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outfile: { type: 'string' } } });
const outfile = path.resolve(values.outfile ?? path.join(root, 'dist', 'patchwell-agent.cjs'));

const started = performance.now();
const result = await build({
  entryPoints: [path.join(root, 'src', 'main.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  banner: { js: '#!/usr/bin/env node' },
  outfile,
  write: false,
  logLevel: 'warning',
  plugins: [
    {
      // ws tries its optional native helpers inside try/catch. Left as runtime requires, they
      // make a single executable warn on start; bundled as modules that throw, ws uses its JS.
      name: 'ws-optional-natives',
      setup(b) {
        b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (a) => ({ path: a.path, namespace: 'absent' }));
        b.onLoad({ filter: /.*/, namespace: 'absent' }, (a) => ({
          contents: `throw new Error('${a.path} is not bundled');`,
          loader: 'js',
        }));
      },
    },
  ],
});
const [file] = result.outputFiles;
await mkdir(path.dirname(outfile), { recursive: true });
const tmp = `${outfile}.${process.pid}.tmp`;
await writeFile(tmp, file.contents);
await chmod(tmp, 0o755);
await rename(tmp, outfile);
console.log(`${shown(outfile)}: ${file.contents.length} bytes in ${Math.round(performance.now() - started)} ms`);
