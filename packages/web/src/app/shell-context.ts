import { useRouteLoaderData } from 'react-router';
import type { ShellContext } from './session';

/** Id of the signed-in layout route, whose loader provides the ShellContext. */
export const SHELL_ROUTE_ID = 'shell';

/** The signed-in user and current zone, for any page under the shell layout. */
export function useShell(): ShellContext {
  const context = useRouteLoaderData(SHELL_ROUTE_ID) as ShellContext | undefined;
  if (!context) throw new Error('useShell() is only available under the signed-in layout');
  return context;
}
