import type { Feature } from '@patchwell/core/rules/entitlements';
import type { ComponentType } from 'react';
import { lazyPage } from '../../app/chunks';
import type { EntitlementScope } from './entitlement';

export type GateOptions = { scope?: EntitlementScope; variant?: 'page' | 'notice' };

/**
 * A route's `lazy` for a page a plan gates: the page's chunk and the gate load together, and
 * the page shows behind {@link FeatureGate}. Route files use it in place of `lazyPage`.
 */
export function gatedPage<M>(
  feature: Feature,
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  options: GateOptions = {},
) {
  return lazyPage(
    () => Promise.all([load(), import('./components/FeatureGate')]),
    ([module, { FeatureGate }]) => {
      const Page = pick(module);
      return function GatedPage() {
        return (
          <FeatureGate feature={feature} scope={options.scope} variant={options.variant}>
            <Page />
          </FeatureGate>
        );
      };
    },
  );
}

/** {@link gatedPage} for the policy creation page, whose gate depends on the `type` chosen. */
export function policyTypeGatedPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazyPage(
    () => Promise.all([load(), import('./components/PolicyTypeGate')]),
    ([module, { PolicyTypeGate }]) => {
      const Page = pick(module);
      return function GatedPolicyPage() {
        return (
          <PolicyTypeGate>
            <Page />
          </PolicyTypeGate>
        );
      };
    },
  );
}
