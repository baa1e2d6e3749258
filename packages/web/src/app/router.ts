import { createBrowserRouter } from 'react-router';
import { routerOptions, routes } from './routes';

export const BASENAME = '/console';

export function createAppRouter() {
  return createBrowserRouter(routes, { basename: BASENAME, ...routerOptions });
}
