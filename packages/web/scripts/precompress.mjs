/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the built console
 * (dist/), which the server sends as they are to browsers that accept them (@fastify/static's
 * `preCompressed`): the console's JavaScript and CSS cross the network at about a quarter of
 * their size, and compressing at build time costs the server nothing per request. Source
 * maps are left as they are (only developer tools fetch them).
 * Run after `vite build` (the package's `build` script does); a directory given as the first
 * argument is compressed instead of dist/ (the server's tests do).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
const TEXT = /\.(js|css|html|svg|json|txt|woff)$/;
/** Below this a compressed copy saves too little to be worth a file (the server sends the original). */
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let after = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  files += 1;
  before += body.length;
  after += br.length;
}
process.stdout.write(
  `precompressed ${files} files: ${(before / 1024).toFixed(0)} KiB → ${(after / 1024).toFixed(0)} KiB (Brotli)\n`,
);
