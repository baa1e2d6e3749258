import type { LoaderFunctionArgs } from 'react-router';
import type * as GuardsModule from './guards';
import { lazyLoader } from './chunks';

type Guards = typeof GuardsModule;

/**
 * A loader built from the guards module. The guards (session check, profile, zone choice,
 * permission and flag checks) load with the first signed-in page, not with the login page.
 */
export function g(make: (guards: Guards) => (args: LoaderFunctionArgs) => unknown) {
  return lazyLoader(() => import('./guards'), make);
}

/** A PATHS entry as a path relative to the /console basename. */
export const rel = (path: string) => path.replace(/^\//, '');

/** One query parameter of a legacy URL. */
export const q = (url: URL, name: string) => url.searchParams.get(name);

/** The flag that swaps the tasks list for the remediations view (spec B section 2). */
export const AVR = 'automated_vulnerability_remediation' as const;
