/**
 * `npm run build -w @patchwell/server`: the migrated PGlite template a first start copies
 * (pglite-template.ts). Does nothing when this build's template is already there.
 */
import { buildTemplate } from './pglite-template.build';

const started = performance.now();
const { key, built } = await buildTemplate();
console.log(
  built
    ? `PGlite template built (${key.slice(0, 12)}) in ${Math.round(performance.now() - started)} ms.`
    : `PGlite template up to date (${key.slice(0, 12)}).`,
);
