import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../../app/paths';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import type { AccountCreatedState } from './SignUpPage';

function readState(state: unknown): Partial<AccountCreatedState> {
  if (!state || typeof state !== 'object') return {};
  const s = state as Record<string, unknown>;
  return {
    accountName: typeof s.accountName === 'string' ? s.accountName : undefined,
    email: typeof s.email === 'string' ? s.email : undefined,
    zoneId: typeof s.zoneId === 'number' ? s.zoneId : undefined,
  };
}

/** /account-created: receives the new account's name, email and zone through router state. */
export function AccountCreatedPage() {
  usePageTitle('Account Created');
  const { accountName, email, zoneId } = readState(useLocation().state);
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md" align="center" ta="center">
        <IconCircleCheck size={48} color="var(--mantine-color-green-8)" aria-hidden="true" />
        <Title order={1} fz="h2">
          {CONSOLE_TEXTS.accountCreated.title}
        </Title>
        <Text>
          {accountName ? CONSOLE_TEXTS.accountCreated.body(accountName) : CONSOLE_TEXTS.accountCreated.bodyNoName}
        </Text>
        {email && <Text size="sm">{CONSOLE_TEXTS.accountCreated.signedInAs(email)}</Text>}
        <Button component={Link} to={withZone(PATHS.dashboard, zoneId)}>
          {CONSOLE_TEXTS.accountCreated.enter}
        </Button>
      </Stack>
    </Paper>
  );
}
