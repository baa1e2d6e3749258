import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/chunks';
import { policyTypeGatedPage } from '../plans/gated-page';

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
    // A worklet or required-software policy outside the plan shows 'Feature Unavailable'.
    lazy: policyTypeGatedPage(
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
