import type { Feature } from '@patchwell/core/rules/entitlements';
import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useShell } from '../../../app/shell-context';
import { entitlementIn, type EntitlementScope } from '../entitlement';
import { FeatureUnavailable } from './FeatureUnavailable';

export type FeatureGateProps = {
  feature: Feature;
  scope?: EntitlementScope;
  /**
   * `page` (default) shows the upsell instead of the page; `notice` shows it above the page,
   * for pages whose existing objects stay readable and removable outside the plan (keys,
   * connections), while the server refuses what the plan lacks.
   */
  variant?: 'page' | 'notice';
  children: ReactNode;
};

/** The page when the current zone's plan (or trial) includes `feature`; otherwise 'Feature Unavailable'. */
export function FeatureGate({ feature, scope = 'zone', variant = 'page', children }: FeatureGateProps) {
  const { profile, zone } = useShell();
  const answer = entitlementIn(profile, zone, feature, scope);
  if (answer.kind === 'available') return <>{children}</>;
  const notice = (
    <FeatureUnavailable
      feature={feature}
      plan={answer.plan}
      isTrialExpired={answer.trialExpired}
      billingPath={answer.billingPath}
      variant={variant}
    />
  );
  if (variant === 'page') return notice;
  return (
    <Stack gap="md">
      {notice}
      {children}
    </Stack>
  );
}
