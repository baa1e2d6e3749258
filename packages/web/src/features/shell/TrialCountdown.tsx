import { trialState } from '@patchwell/core/rules/trial';
import { TEXTS } from '@patchwell/core/texts';
import { Button, Group, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { CONSOLE_TEXTS } from '../../texts';

export type TrialSubject = { trial_end_time: string | null; trial_expired: boolean };

/**
 * The trial countdown (spec A section 4): '{n} days left in trial' or 'Trial Expired', and
 * 'Upgrade Now' to billing for users with Billing.read. Large screens only (the caller
 * places it with visibleFrom="lg").
 */
export function TrialCountdown({
  trial,
  billingPath,
  now,
}: {
  trial: TrialSubject | undefined;
  /** The billing route, when the user has Billing.read. */
  billingPath?: string;
  /** The current time; defaults to when the bar first rendered. */
  now?: number;
}) {
  const [mountedAt] = useState(Date.now);
  if (!trial) return null;
  const state = trialState(trial, now ?? mountedAt);
  if (state.kind === 'none') return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <IconHourglass size={16} aria-hidden="true" />
      <Text size="sm" fw={500} c={state.kind === 'expired' ? 'red.9' : undefined}>
        {state.kind === 'expired' ? TEXTS.trial.expired : CONSOLE_TEXTS.trial.daysLeft(state.daysLeft)}
      </Text>
      {billingPath && (
        <Button component={Link} to={billingPath} size="compact-sm" variant="filled">
          {TEXTS.trial.upgrade}
        </Button>
      )}
    </Group>
  );
}
