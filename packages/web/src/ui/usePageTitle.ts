import { PRODUCT_NAME } from '@patchwell/core/constants';
import { useEffect } from 'react';

/** Page titles have the form '{page} · Patchwell' (spec A section 1). */
export function pageTitle(page: string): string {
  return `${page} · ${PRODUCT_NAME}`;
}

export function usePageTitle(page: string): void {
  useEffect(() => {
    document.title = pageTitle(page);
  }, [page]);
}
