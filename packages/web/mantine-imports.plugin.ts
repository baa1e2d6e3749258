import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const vendor = (file: string) => fileURLToPath(new URL(`./src/vendor/${file}`, import.meta.url));

/**
 * Imports in Mantine's modules that take a whole library for one small piece, and the module
 * (src/vendor/) that gives that piece alone. Each is matched as exact text: if Mantine changes
 * the import, nothing is rewritten and the build is as before (heavier, never broken).
 */
const REWRITES = [
  // ScrollArea (and with it Table, whose ScrollContainer uses it) needs one hook of
  // floating-ui: a page with a table downloaded all of floating-ui (15 KiB gzipped).
  { from: 'import { useMergeRefs } from "@floating-ui/react";', to: vendor('use-merge-refs.ts') },
];

/** Points those imports at the vendor modules (the console's build; the tests run Mantine as published). */
export function lighterMantineImports(): Plugin {
  return {
    name: 'patchwell:lighter-mantine-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('/@mantine/core/esm/')) return null;
      let out = code;
      for (const { from, to } of REWRITES) {
        out = out.replace(from, from.replace(/"[^"]+";$/, `${JSON.stringify(to)};`));
      }
      return out === code ? null : { code: out, map: null };
    },
  };
}
