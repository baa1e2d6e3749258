import { SAML_SIGNIN_ERROR } from '@patchwell/core/constants';
import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { Alert, Anchor, Button, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { ApiError } from '../../api/errors';
import { loadBeyondLogin } from '../../app/chunks';
import { PATHS } from '../../app/paths';
import { lastRoute, rememberCurrentOrg, storedCurrentOrg } from '../../app/storage';
import { chooseZone, requestedZoneId } from '../../app/zone';
import type { Profile } from '@patchwell/core/auth/profile.schema';
import { ENTRY_TEXTS } from '../../texts.entry';
import { usePageTitle } from '../../ui/usePageTitle';
import { useClientConfig } from '../shell/config.api';
import { afterLoginPath, normalizeRedirect } from './after-login';

// The sign-in call validates the profile with its zod schema. That code is fetched when the
// user starts filling in the form, not with the page, which keeps the login page light.
const loadAuthApi = () => import('./auth.api');
const loadSessionApi = () => import('./session.api');
// The second step (a code, or the enrolment) comes after a right password, and only for some
// users: it is fetched with the sign-in code, not with the page.
const loadMfaStep = () => Promise.all([loadBeyondLogin(), import('../mfa/MfaSignInStep')]).then(([, m]) => m);
const MfaSignInStep = lazy(() => loadMfaStep().then((m) => ({ default: m.MfaSignInStep })));
const preloadSignIn = () => void Promise.all([loadAuthApi(), loadSessionApi(), loadMfaStep()]).catch(() => undefined);

// A light pre-check; the server holds the real rules.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Failures whose server message is meant for the user (wrong password, locked, rate limited).
const SHOWN_CODES = new Set(['auth.invalid_credentials', 'auth.locked', 'auth.rate_limited', 'auth.email_unverified']);

/** The message for a failed login: the server's for known failures, else the spec's generic text. */
export function loginErrorText(error: unknown): string {
  if (error instanceof ApiError && [401, 403, 429].includes(error.status)) {
    const message = error.body?.message;
    if (message && (!error.code || SHOWN_CODES.has(error.code))) return message;
  }
  return BASE_TEXTS.login.failed;
}

type FieldErrors = { email?: string; password?: string };

/** The identity provider's sign-in address, carrying the page's redirect when it is a console path. */
export function samlAddress(loginPath: string, redirect: string | null): string {
  const target = normalizeRedirect(redirect);
  if (!target) return loginPath;
  return `${loginPath}${loginPath.includes('?') ? '&' : '?'}redirect=${encodeURIComponent(target)}`;
}
/** The answers to a right password that lead to the second step instead of a session. */
const MFA_CODES = new Set(['auth.mfa_required', 'auth.mfa_enrolment_required']);

/** A new verification link for the address typed in the form (the same answer for any address). */
function ResendVerification({ email }: { email: string }) {
  const resend = useMutation({
    mutationFn: async () => (await loadAuthApi()).resendVerification(email.trim()),
    meta: { onError: 'none' },
  });
  if (resend.isSuccess) {
    return (
      <Alert color="blue" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
        {resend.data.message}
      </Alert>
    );
  }
  return (
    <Stack gap={4}>
      <Button
        variant="light"
        onClick={() => resend.mutate()}
        loading={resend.isPending}
        disabled={!EMAIL.test(email.trim())}
      >
        {ENTRY_TEXTS.login.resendVerification}
      </Button>
      {resend.isError && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {errorText(resend.error)}
        </Text>
      )}
    </Stack>
  );
}

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
  const [unverified, setUnverified] = useState(false);
  // After a right password of a user with MFA: the code step (or the enrolment a requirement asks for).
  const [isSecondStep, setSecondStep] = useState(false);
  const passwordResetOn = useClientConfig()?.password_reset_enabled === true;
  const err = params.get('err');
  const requested = requestedZoneId(params);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const errors: FieldErrors = {};
    const normalizedEmail = email.trim().toLowerCase();
    if (!normalizedEmail) errors.email = BASE_TEXTS.validation.required;
    else if (!EMAIL.test(normalizedEmail)) errors.email = BASE_TEXTS.validation.email;
    if (!password) errors.password = BASE_TEXTS.validation.required;
    setFormError(null);
    if (errors.email) {
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});

    setSubmitting(true);
    // An address of a domain with single sign-on goes to its identity provider, password or not.
    const sso = await loadAuthApi()
      .then(({ checkSaml }) => checkSaml(normalizedEmail, requested))
      .catch(() => null);
    if (sso?.saml && sso.redirect) {
      window.location.assign(samlAddress(sso.redirect, params.get('redirect')));
      return;
    }
    if (errors.password) {
      setFieldErrors(errors);
      setSubmitting(false);
      return;
    }

    try {
      const { login } = await loadAuthApi();
      await finish(await login(normalizedEmail, password, requested));
    } catch (error) {
      if (error instanceof ApiError && MFA_CODES.has(error.code ?? '')) {
        setSecondStep(true);
        setSubmitting(false);
        return;
      }
      setFormError(loginErrorText(error));
      setUnverified(error instanceof ApiError && error.code === 'auth.email_unverified');
      setSubmitting(false);
    }
  };

  const finish = async (profile: Profile) => {
    const { PROFILE_QUERY_KEY } = await loadSessionApi();
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
  };

  const onSecondStepDone = async () => {
    try {
      const { fetchProfile } = await loadSessionApi();
      await finish(await fetchProfile(requested));
    } catch (error) {
      setSecondStep(false);
      setFormError(loginErrorText(error));
    }
  };

  if (isSecondStep) {
    return (
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Suspense fallback={<Loader size="sm" />}>
          <MfaSignInStep
            email={email.trim().toLowerCase()}
            onSignedIn={() => void onSecondStepDone()}
            onCancel={() => {
              setSecondStep(false);
              setPassword('');
            }}
          />
        </Suspense>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {ENTRY_TEXTS.login.title}
        </Title>
        {err === 'session-expired' && (
          <Alert color="yellow" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {BASE_TEXTS.login.sessionExpired}
          </Alert>
        )}
        {err === SAML_SIGNIN_ERROR && (
          <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {BASE_TEXTS.login.failed}
          </Alert>
        )}
        {err === 'verification_email_sent' && (
          <Alert color="blue" role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {BASE_TEXTS.login.verificationEmailSent}
          </Alert>
        )}
        {(err === 'verification_email_sent' || unverified) && <ResendVerification email={email} />}
        {formError && (
          <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {formError}
          </Alert>
        )}
        <form onSubmit={onSubmit} onFocus={preloadSignIn} noValidate>
          <Stack gap="md">
            <TextInput
              label={ENTRY_TEXTS.login.email}
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
              label={ENTRY_TEXTS.login.password}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldErrors.password}
            />
            <Button type="submit" loading={isSubmitting} fullWidth>
              {ENTRY_TEXTS.login.submit}
            </Button>
          </Stack>
        </form>
        {passwordResetOn && (
          <Anchor component={Link} to={PATHS.forgotPassword} size="sm" ta="center">
            {ENTRY_TEXTS.login.forgotPassword}
          </Anchor>
        )}
        <Text size="sm" ta="center">
          {ENTRY_TEXTS.login.noAccount}{' '}
          <Anchor component={Link} to={PATHS.signup}>
            {ENTRY_TEXTS.login.signUp}
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
