import { ENTITLEMENT_TEXTS, FEATURE_RULES, type Feature } from '@patchwell/core/rules/entitlements';
import { PLAN_LABELS, type Plan } from '@patchwell/core/rules/tiers';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useId } from 'react';
import { Link } from 'react-router';

export type FeatureUnavailableProps = {
  feature: Feature;
  /** The plan that brings the feature. */
  plan: Plan;
  /** The zone's trial ended: the notice says 'Trial Expired' too. */
  isTrialExpired: boolean;
  /** The billing route, for users with Billing.read; others are told to ask one who has it. */
  billingPath: string | undefined;
  /** `page` stands in for a whole page; `notice` sits above a page that stays usable. */
  variant?: 'page' | 'notice';
};

/**
 * The upsell where a feature is outside the zone's plan (spec B section 1, 'Feature
 * Unavailable'): which plan brings it, 'Trial Expired' when an ended trial took it away
 * (spec A section 4), and 'Upgrade Now' to billing for users who may read billing.
 */
export function FeatureUnavailable({
  feature,
  plan,
  isTrialExpired,
  billingPath,
  variant = 'page',
}: FeatureUnavailableProps) {
  const titleId = useId();
  const isPage = variant === 'page';
  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      withBorder
      radius="md"
      p={isPage ? 'xl' : 'md'}
      bg="var(--mantine-color-gray-0)"
    >
      <Stack gap="sm" align={isPage ? 'center' : 'flex-start'} ta={isPage ? 'center' : undefined}>
        <Group gap="xs">
          <IconLock size={isPage ? 28 : 18} stroke={1.5} aria-hidden="true" />
          <Title id={titleId} order={isPage ? 2 : 3} fz={isPage ? 'h3' : 'h5'}>
            {ENTITLEMENT_TEXTS.featureUnavailable}
          </Title>
          {isTrialExpired && (
            <Badge color="red" variant="light">
              {ENTITLEMENT_TEXTS.trialExpired}
            </Badge>
          )}
        </Group>
        <Text size="sm">{ENTITLEMENT_TEXTS.needsPlan(FEATURE_RULES[feature].label, PLAN_LABELS[plan])}</Text>
        {isTrialExpired && (
          <Text size="sm" c="dimmed">
            {ENTITLEMENT_TEXTS.trialExpiredBody}
          </Text>
        )}
        {billingPath ? (
          <Button component={Link} to={billingPath} size={isPage ? 'sm' : 'compact-sm'}>
            {ENTITLEMENT_TEXTS.upgradeNow}
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            {ENTITLEMENT_TEXTS.askBillingAdmin}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
