import { UNLOCK_TEXTS } from '@patchwell/core/auth/unlock.schema';
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { PATHS } from '../../app/paths';
import { usePageTitle } from '../../ui/usePageTitle';
import { unlockAccount } from './auth.api';

const alertStyles = { message: { color: 'var(--mantine-color-text)' } };

/**
 * /unlock?token=: the page the unlock e-mail links to. Unlocking waits for a click, so a mail
 * scanner that opens links spends nothing.
 */
export function UnlockPage() {
  usePageTitle(UNLOCK_TEXTS.pageTitle);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unlock = useMutation({ mutationFn: () => unlockAccount(token), meta: { onError: 'none' } });

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {UNLOCK_TEXTS.pageTitle}
        </Title>
        {token === '' ? (
          <Alert color="red" role="alert" styles={alertStyles}>
            {UNLOCK_TEXTS.missingToken}
          </Alert>
        ) : unlock.isSuccess ? (
          <Alert color="green" role="status" styles={alertStyles}>
            {UNLOCK_TEXTS.done}
          </Alert>
        ) : (
          <>
            {unlock.isError && (
              <Alert color="red" role="alert" styles={alertStyles}>
                {errorText(unlock.error)}
              </Alert>
            )}
            <Text>{UNLOCK_TEXTS.intro}</Text>
            <Button onClick={() => unlock.mutate()} loading={unlock.isPending} fullWidth>
              {UNLOCK_TEXTS.button}
            </Button>
          </>
        )}
        <Anchor component={Link} to={PATHS.login}>
          {UNLOCK_TEXTS.signIn}
        </Anchor>
      </Stack>
    </Paper>
  );
}
