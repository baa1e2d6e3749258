import { Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';

/**
 * The login page's form in the same Mantine components, with none of the console's own code
 * (no texts module, no API client, no guards): what any page of this kind costs in this stack.
 */
export function SignInForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} fz="h2">
          Login
        </Title>
        <form onSubmit={(e) => e.preventDefault()} noValidate>
          <Stack gap="md">
            <TextInput
              label="Email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" fullWidth>
              Login
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          No account? <Anchor href="#">Sign up</Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
