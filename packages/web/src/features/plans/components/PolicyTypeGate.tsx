import { POLICY_TYPE_FEATURE } from '@patchwell/core/rules/entitlements';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { FeatureGate } from './FeatureGate';

/**
 * /manage/policies/create?type=…: a worklet or required-software policy needs its plan
 * feature (core's POLICY_TYPE_FEATURE, the server's gate too); choosing a type, or a patch
 * policy, needs none.
 */
export function PolicyTypeGate({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const type = params.get('type');
  const feature = type === 'custom' || type === 'required_software' ? POLICY_TYPE_FEATURE[type] : null;
  if (!feature) return <>{children}</>;
  return <FeatureGate feature={feature}>{children}</FeatureGate>;
}
