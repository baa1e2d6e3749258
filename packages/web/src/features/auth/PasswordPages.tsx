import { Paper, Stack, Text, Title } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';

function PasswordPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {title}
        </Title>
        <Text>{CONSOLE_TEXTS.passwordPages.description}</Text>
      </Stack>
    </Paper>
  );
}

/** /forgot-password: reachable only with the first authentication milestone flag. */
export function ForgotPasswordPage() {
  return <PasswordPage title={CONSOLE_TEXTS.passwordPages.forgotTitle} />;
}

/** /password-reset: reachable only with the first authentication milestone flag. */
export function PasswordResetPage() {
  return <PasswordPage title={CONSOLE_TEXTS.passwordPages.resetTitle} />;
}
