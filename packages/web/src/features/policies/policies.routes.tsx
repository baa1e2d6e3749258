import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';

/** The policy pages under Manage (paths relative to /console/manage). */
export const policyRoutes: RouteObject[] = [
  {
    path: 'policies',
    lazy: lazyPage(
      () => import('./PoliciesPage'),
      (m) => m.PoliciesPage,
    ),
  },
  {
    path: 'policies/create',
    lazy: lazyPage(
      () => import('./CreatePolicyPage'),
      (m) => m.CreatePolicyPage,
    ),
  },
  {
    path: 'policies/:policyId',
    lazy: lazyPage(
      () => import('./PolicyEditorPage'),
      (m) => m.PolicyEditorPage,
    ),
  },
];
