import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (where its package.json, migrations and PGlite template live),
 * found by walking up from this module's address: the sources run by tsx (`src/`) and the
 * bundle `npm start` runs (`dist/main.mjs`) sit at different depths, so a path written relative
 * to one module's address would be right in only one of them.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@patchwell/server'
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`@patchwell/server's package.json not found above ${from}`);
  }
}

export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
