import { zodResolver } from '@hookform/resolvers/zod';
import { ZSignUpBody, type SignUpResult } from '@patchwell/core/auth/signup.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../api/error-text';
import { ApiError } from '../../api/errors';
import { PATHS } from '../../app/paths';
import { CONSOLE_TEXTS } from '../../texts';
import { NameFields } from '../../ui/NameFields';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { useClientConfig } from '../shell/config.api';
import { signUp } from './auth.api';

type SignUpInput = z.input<typeof ZSignUpBody>;
type SignUpOutput = z.output<typeof ZSignUpBody>;
type Field = FieldPath<SignUpInput>;

const FIELDS: Field[] = ['firstname', 'lastname', 'company', 'email', 'password', 'password_confirmation', 'endpoints'];

/** What /account-created receives through router state. */
export type AccountCreatedState = { accountName: string; email: string; zoneId: number };

/** Field errors of a 400/409 body (`errors: { field: [messages] }`), for the fields of this form. */
export function serverFieldErrors(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof ApiError) || !error.body) return {};
  const errors = error.body.errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
  const out: Partial<Record<Field, string>> = {};
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    if (!(FIELDS as string[]).includes(key)) continue;
    const messages = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    if (messages.length) out[key as Field] = messages.join(' ');
  }
  return out;
}

/**
 * /signup (spec A sections 2, 3, 5): creates an account, then goes where the server says:
 * the login page asking to follow the mailed verification link (`err=verification_email_sent`).
 */
export function SignUpPage() {
  usePageTitle('Sign Up');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useClientConfig();
  const [formError, setFormError] = useState<string | null>(null);
  const [isDisabled, setDisabled] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<SignUpInput, unknown, SignUpOutput>({
    resolver: zodResolver(ZSignUpBody),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      firstname: '',
      lastname: '',
      company: '',
      email: '',
      password: '',
      password_confirmation: '',
      endpoints: '',
    },
  });

  // Once the account exists, leaving is the point: no unsaved-changes prompt.
  useUnsavedChangesPrompt(isDirty && created === null);

  useEffect(() => {
    if (created) navigate(created, { replace: true });
  }, [created, navigate]);

  const onValid = async (values: SignUpOutput) => {
    setFormError(null);
    try {
      const result: SignUpResult = await signUp(values);
      queryClient.clear();
      setCreated(result.redirect);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        setDisabled(true);
        return;
      }
      const fieldErrors = serverFieldErrors(error);
      const fields = Object.keys(fieldErrors) as Field[];
      for (const field of fields) setError(field, { type: 'server', message: fieldErrors[field] });
      setFormError(fields.length ? TEXTS.validation.summary : errorText(error));
    }
  };

  const onInvalid = () => setFormError(TEXTS.validation.summary);

  if (isDisabled || config?.signup_enabled === false) {
    return (
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Stack gap="md">
          <Title order={1} fz="h2">
            {CONSOLE_TEXTS.signup.title}
          </Title>
          <Text>{CONSOLE_TEXTS.signup.disabled}</Text>
          <Anchor component={Link} to={PATHS.login}>
            {CONSOLE_TEXTS.signup.logIn}
          </Anchor>
        </Stack>
      </Paper>
    );
  }

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {CONSOLE_TEXTS.signup.title}
        </Title>
        {formError && (
          <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {formError}
          </Alert>
        )}
        <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate>
          <Stack gap="sm">
            <NameFields firstname={register('firstname')} lastname={register('lastname')} errors={errors} />
            <TextInput
              label={CONSOLE_TEXTS.signup.company}
              autoComplete="organization"
              required
              {...register('company')}
              error={errors.company?.message}
            />
            <TextInput
              label={CONSOLE_TEXTS.signup.email}
              type="email"
              autoComplete="email"
              required
              {...register('email')}
              error={errors.email?.message}
            />
            <NewPasswordFields
              password={register('password')}
              confirmation={register('password_confirmation')}
              errors={errors}
            />
            <TextInput
              label={CONSOLE_TEXTS.signup.endpoints}
              inputMode="numeric"
              required
              {...register('endpoints')}
              error={errors.endpoints?.message}
            />
            <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
              {CONSOLE_TEXTS.signup.submit}
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center">
          {CONSOLE_TEXTS.signup.haveAccount}{' '}
          <Anchor component={Link} to={PATHS.login}>
            {CONSOLE_TEXTS.signup.logIn}
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
