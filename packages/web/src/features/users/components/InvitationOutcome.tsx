import type { InviteUserResult } from '@patchwell/core/users/users.schema';
import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';

const T = CONSOLE_TEXTS.users;

/** Whether an invitation's e-mail did not go out (no relay, or it failed): then show {@link InvitationOutcome}. */
export const isMailHeld = (result: Pick<InviteUserResult, 'mail'>) =>
  result.mail === 'queued' || result.mail === 'failed';

/**
 * An invitation whose e-mail waits in the outbox: says so, and offers its link to copy when
 * the server gave it (to those who may read the outbox), else where to find it.
 */
export function InvitationOutcome({
  email,
  result,
}: {
  email: string;
  result: Pick<InviteUserResult, 'mail' | 'accept_link'>;
}) {
  return (
    <Stack gap="sm">
      <Alert color="yellow" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
        {result.mail === 'failed' ? T.mailFailed(email) : T.mailQueued(email)}
      </Alert>
      {result.accept_link ? (
        <>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label={T.acceptLink}
              value={result.accept_link}
              readOnly
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: 1 }}
            />
            <CopyButton value={result.accept_link}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? T.linkCopied : T.copyLink}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm">{T.copyLinkHint}</Text>
        </>
      ) : (
        <Text size="sm">{T.askForLink}</Text>
      )}
    </Stack>
  );
}
