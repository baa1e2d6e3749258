/* eslint-disable no-console -- a command-line report */
// Sums the gzip size of the JavaScript a console page loads: the entry chunk, its static
// imports, and the page's lazy route chunk with its static imports. Run after a build:
//   node packages/web/scripts/bundle-size.mjs [src/features/auth/LoginPage.tsx]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const page = process.argv[2] ?? 'src/features/auth/LoginPage.tsx';

const files = new Map();
function visit(key) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Not in the manifest: ${key}`);
  if (files.has(chunk.file)) return;
  files.set(chunk.file, key);
  for (const dep of chunk.imports ?? []) visit(dep);
}
visit('index.html');
visit(page);

let raw = 0;
let gz = 0;
const rows = [...files.keys()]
  .filter((f) => f.endsWith('.js'))
  .map((file) => {
    const bytes = readFileSync(join(dist, file));
    const size = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += size;
    return [file, bytes.length, size];
  })
  .sort((a, b) => b[2] - a[2]);
for (const [file, r, g] of rows)
  console.log(`${(g / 1024).toFixed(1).padStart(7)} kB gz ${(r / 1024).toFixed(1).padStart(8)} kB  ${file}`);
console.log(
  `${(gz / 1024).toFixed(1).padStart(7)} kB gz ${(raw / 1024).toFixed(1).padStart(8)} kB  total JS for ${page} (${rows.length} files)`,
);
