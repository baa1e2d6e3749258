import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS } from '../../app/paths';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';

/** /accept-invite: an honest empty state until invitations exist (they arrive with user management). */
export function AcceptInvitePage() {
  usePageTitle(CONSOLE_TEXTS.acceptInvite.title);
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {CONSOLE_TEXTS.acceptInvite.title}
        </Title>
        <Text>{CONSOLE_TEXTS.acceptInvite.description}</Text>
        <Anchor component={Link} to={PATHS.login}>
          {CONSOLE_TEXTS.acceptInvite.toLogin}
        </Anchor>
      </Stack>
    </Paper>
  );
}
