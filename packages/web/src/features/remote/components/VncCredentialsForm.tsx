import { Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import type { CredentialsRequest } from '../useRemoteSession';

const T = CONSOLE_TEXTS.remote;

/**
 * The sign-in of the device's own VNC server (macOS Screen Sharing asks for a Mac account, a
 * Windows VNC server for its password): sent through the tunnel to the device, never to our
 * server's API, and not kept.
 */
export function VncCredentialsForm({ request }: { request: CredentialsRequest }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const wantsUsername = request.fields.includes('username');
  return (
    <Paper withBorder p="md" maw={420}>
      <form
        aria-label={T.credentialsTitle}
        onSubmit={(e) => {
          e.preventDefault();
          request.send({ ...(wantsUsername ? { username } : {}), password });
        }}
      >
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {T.credentialsTitle}
          </Title>
          <Text size="sm">{T.credentialsHint}</Text>
          {wantsUsername && (
            <TextInput
              label={T.username}
              autoComplete="off"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              required
            />
          )}
          <PasswordInput
            label={T.password}
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            required
          />
          <Button type="submit">{T.signIn}</Button>
        </Stack>
      </form>
    </Paper>
  );
}
