import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (where its package.json, migrations and PGlite template live),
 * found by walking up from this module's address: the sources run by tsx (`src/`) and the
 * bundle `npm start` runs (`dist/main.mjs`) sit at different depths, so a path written relative
 * to one module's address would be right in only one of them.
 */
function findPackageRoot(from: string): { dir: string; manifest: { name: string; version: string } } {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const manifest = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string })
      : null;
    if (manifest?.name === '@patchwell/server') return { dir, manifest };
    if (path.dirname(dir) === dir) throw new Error(`@patchwell/server's package.json not found above ${from}`);
  }
}

const found = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
export const PACKAGE_ROOT = found.dir;
/** The server's package.json, read once here (version.ts takes the version from it). */
export const PACKAGE_MANIFEST = found.manifest;
