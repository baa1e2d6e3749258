import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSWORD_RESET_TEXTS as T,
  ZNewPasswordForm,
  ZPasswordResetRequest,
  type NewPasswordForm,
} from '@patchwell/core/auth/password-reset.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Button, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { PATHS } from '../../app/paths';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { checkPasswordResetToken, requestPasswordReset, resetPassword } from './auth.api';

const alertStyles = { message: { color: 'var(--mantine-color-text)' } };

function PasswordPage({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {title}
        </Title>
        {children}
        <Anchor component={Link} to={PATHS.login}>
          {T.toLogin}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** /forgot-password: asks for a reset link (reachable only with the first authentication milestone flag). */
export function ForgotPasswordPage() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }, unknown, { email: string }>({
    resolver: zodResolver(ZPasswordResetRequest),
    defaultValues: { email: '' },
  });
  const send = useMutation({
    mutationFn: (email: string) => requestPasswordReset(email),
    onSuccess: () => notify.success(TEXTS.success.passwordResetEmailSent),
    meta: { onError: 'none' },
  });

  return (
    <PasswordPage title={T.forgotTitle}>
      {send.isSuccess ? (
        <Alert color="green" role="status" styles={alertStyles}>
          {send.data.message}
        </Alert>
      ) : (
        <form onSubmit={handleSubmit(({ email }) => send.mutate(email))} noValidate>
          <Stack gap="md">
            {send.isError && (
              <Alert color="red" role="alert" styles={alertStyles}>
                {errorText(send.error)}
              </Alert>
            )}
            <Text>{T.forgotIntro}</Text>
            <TextInput
              label={CONSOLE_TEXTS.login.email}
              type="email"
              autoComplete="username"
              required
              {...register('email')}
              error={errors.email?.message}
            />
            <Button type="submit" loading={send.isPending} fullWidth>
              {T.send}
            </Button>
          </Stack>
        </form>
      )}
    </PasswordPage>
  );
}

function NewPasswordForm({ token, email }: { token: string; email: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NewPasswordForm, unknown, NewPasswordForm>({
    resolver: zodResolver(ZNewPasswordForm),
    defaultValues: { password: '', password_confirmation: '' },
  });
  const reset = useMutation({
    mutationFn: (values: NewPasswordForm) => resetPassword({ token, ...values }),
    meta: { onError: 'none' },
  });
  if (reset.isSuccess) {
    return (
      <Alert color="green" role="status" styles={alertStyles}>
        {T.resetDone(reset.data.sessions_ended)}
      </Alert>
    );
  }
  return (
    <form onSubmit={handleSubmit((values) => reset.mutate(values))} noValidate>
      <Stack gap="md">
        {reset.isError && (
          <Alert color="red" role="alert" styles={alertStyles}>
            {errorText(reset.error)}
          </Alert>
        )}
        <Text>{T.resetFor(email)}</Text>
        <NewPasswordFields
          password={register('password')}
          confirmation={register('password_confirmation')}
          errors={errors}
        />
        <Button type="submit" loading={reset.isPending} fullWidth>
          {T.resetSubmit}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * /password-reset?token=: the page the reset mail links to. It asks the server whether the
 * link still works before showing the form (reachable only with the first authentication
 * milestone flag).
 */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = useQuery({
    queryKey: ['passwordReset', token],
    queryFn: ({ signal }) => checkPasswordResetToken(token, signal),
    enabled: token !== '',
    retry: false,
    gcTime: 0,
    meta: { onError: 'none' },
  });

  let body: ReactNode;
  if (token === '') {
    body = (
      <Alert color="red" role="alert" styles={alertStyles}>
        {T.missingToken}
      </Alert>
    );
  } else if (state.isPending) {
    body = <Loader role="progressbar" aria-label={T.checking} size="sm" />;
  } else if (state.isError) {
    body = (
      <>
        <Alert color="red" role="alert" styles={alertStyles}>
          {errorText(state.error)}
        </Alert>
        <Anchor component={Link} to={PATHS.forgotPassword}>
          {T.askAgain}
        </Anchor>
      </>
    );
  } else {
    body = <NewPasswordForm token={token} email={state.data.email} />;
  }
  return <PasswordPage title={T.resetTitle}>{body}</PasswordPage>;
}
