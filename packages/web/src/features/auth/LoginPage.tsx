import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { PATHS } from '../../app/paths';
import { lastRoute, rememberCurrentOrg, storedCurrentOrg } from '../../app/storage';
import { chooseZone, requestedZoneId } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { afterLoginPath } from './after-login';

// The sign-in call validates the profile with its zod schema. That code is fetched when the
// user starts filling in the form, not with the page, which keeps the login page light.
const loadAuthApi = () => import('./auth.api');

// A light pre-check; the server holds the real rules.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Failures whose server message is meant for the user (wrong password, locked, rate limited).
const SHOWN_CODES = new Set(['auth.invalid_credentials', 'auth.locked', 'auth.rate_limited']);

/** The message for a failed login: the server's for known failures, else the spec's generic text. */
export function loginErrorText(error: unknown): string {
  if (error instanceof ApiError && [401, 403, 429].includes(error.status)) {
    const message = error.body?.message;
    if (message && (!error.code || SHOWN_CODES.has(error.code))) return message;
  }
  return TEXTS.login.failed;
}

type FieldErrors = { email?: string; password?: string };

/** /login: email and password; takes o, redirect and err (spec A section 2). */
export function LoginPage() {
  usePageTitle('Login');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const err = params.get('err');
  const requested = requestedZoneId(params);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors: FieldErrors = {};
    const normalizedEmail = email.trim().toLowerCase();
    if (!normalizedEmail) errors.email = TEXTS.validation.required;
    else if (!EMAIL.test(normalizedEmail)) errors.email = TEXTS.validation.email;
    if (!password) errors.password = TEXTS.validation.required;
    setFieldErrors(errors);
    setFormError(null);
    if (errors.email || errors.password) return;

    setSubmitting(true);
    try {
      const { login, PROFILE_QUERY_KEY } = await loadAuthApi();
      const profile = await login(normalizedEmail, password, requested);
      queryClient.clear();
      queryClient.setQueryData(PROFILE_QUERY_KEY, profile);
      const zone = chooseZone(profile.orgs, requested, storedCurrentOrg());
      if (zone) rememberCurrentOrg(zone.id);
      const target = afterLoginPath({
        redirect: params.get('redirect'),
        lastRoute: lastRoute(),
        profile,
        requestedZoneId: requested,
        storedZoneId: storedCurrentOrg(),
      });
      navigate(target, { replace: true });
    } catch (error) {
      setFormError(loginErrorText(error));
      setSubmitting(false);
    }
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {CONSOLE_TEXTS.login.title}
        </Title>
        {err === 'session-expired' && (
          <Alert color="yellow" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {TEXTS.login.sessionExpired}
          </Alert>
        )}
        {err === 'verification_email_sent' && (
          <Alert color="blue" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {TEXTS.login.verificationEmailSent}
          </Alert>
        )}
        {formError && (
          <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {formError}
          </Alert>
        )}
        <form onSubmit={onSubmit} onFocus={() => void loadAuthApi().catch(() => undefined)} noValidate>
          <Stack gap="md">
            <TextInput
              label={CONSOLE_TEXTS.login.email}
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldErrors.email}
              data-autofocus
            />
            <PasswordInput
              label={CONSOLE_TEXTS.login.password}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldErrors.password}
            />
            <Button type="submit" loading={isSubmitting} fullWidth>
              {CONSOLE_TEXTS.login.submit}
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          {CONSOLE_TEXTS.login.noAccount}{' '}
          <Anchor component={Link} to={PATHS.signup}>
            {CONSOLE_TEXTS.login.signUp}
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
