import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/**
 * floating-ui's `useMergeRefs(refs)` for Mantine's ScrollArea, which imports nothing else from
 * floating-ui (mantine-imports.plugin.ts points it here). Mantine's own `useMergedRef` does the same
 * (each ref gets the node; ref cleanups run on detach), without 15 KiB of positioning code on
 * every page that shows a table.
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
