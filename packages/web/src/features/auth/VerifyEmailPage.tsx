import { PASSWORD_RESET_TEXTS as T } from '@patchwell/core/auth/password-reset.schema';
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { PATHS } from '../../app/paths';
import { usePageTitle } from '../../ui/usePageTitle';
import { verifyEmail } from './auth.api';

const alertStyles = { message: { color: 'var(--mantine-color-text)' } };

/**
 * /verify-email?token=: the page the sign-up's verification mail links to. Verifying waits
 * for a click, so a mail scanner that opens links spends nothing.
 */
export function VerifyEmailPage() {
  usePageTitle(T.verifyTitle);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useMutation({ mutationFn: () => verifyEmail(token), meta: { onError: 'none' } });

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {T.verifyTitle}
        </Title>
        {token === '' ? (
          <Alert color="red" role="alert" styles={alertStyles}>
            {T.verifyMissingToken}
          </Alert>
        ) : verify.isSuccess ? (
          <Alert color="green" role="status" styles={alertStyles}>
            {T.verifyDone}
          </Alert>
        ) : (
          <>
            {verify.isError && (
              <Alert color="red" role="alert" styles={alertStyles}>
                {errorText(verify.error)}
              </Alert>
            )}
            <Text>{T.verifyIntro}</Text>
            <Button onClick={() => verify.mutate()} loading={verify.isPending} fullWidth>
              {T.verifyButton}
            </Button>
          </>
        )}
        <Anchor component={Link} to={PATHS.login}>
          {T.toLogin}
        </Anchor>
      </Stack>
    </Paper>
  );
}
