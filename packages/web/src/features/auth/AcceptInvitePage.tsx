import { zodResolver } from '@hookform/resolvers/zod';
import { ZPassword } from '@patchwell/core/auth/password';
import { TEXTS } from '@patchwell/core/texts';
import { nameField, type Invitation } from '@patchwell/core/users/users.schema';
import { Alert, Anchor, Button, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { errorText } from '../../api/error-text';
import { ApiError } from '../../api/errors';
import { serverFieldErrors } from '../../api/field-errors';
import { PATHS } from '../../app/paths';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { NameFields } from '../../ui/NameFields';
import { NewPasswordFields } from '../../ui/NewPasswordFields';
import { usePageTitle } from '../../ui/usePageTitle';
import { acceptInvitation, fetchInvitation } from './auth.api';
import { profileQuery } from './session.api';

/** A new user gives names and a password (twice); an existing user only accepts. */
export const ZNewUserAcceptForm = z
  .object({
    firstname: nameField('First name'),
    lastname: nameField('Last name'),
    password: ZPassword,
    password_confirmation: z.string().min(1, TEXTS.validation.required),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'Passwords do not match.',
  });
type AcceptInput = z.input<typeof ZNewUserAcceptForm>;
type Field = FieldPath<AcceptInput>;
const FIELDS: Field[] = ['firstname', 'lastname', 'password', 'password_confirmation'];

/** The server's words for a used, expired or unknown invitation. */
function invitationProblem(error: unknown): string {
  if (error instanceof ApiError && (error.status === 410 || error.status === 404)) {
    return error.body?.message ?? CONSOLE_TEXTS.acceptInvite.invalid;
  }
  return errorText(error);
}

function AcceptForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const needsPassword = invitation.needs_password;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AcceptInput>({
    resolver: needsPassword ? zodResolver(ZNewUserAcceptForm) : undefined,
    defaultValues: { firstname: '', lastname: '', password: '', password_confirmation: '' },
  });

  const onValid = async (values: AcceptInput) => {
    setFormError(null);
    try {
      await acceptInvitation(token, needsPassword ? values : {});
      // Signed in now: load the profile and open the dashboard of the zone just joined.
      queryClient.clear();
      const profile = await queryClient.fetchQuery(profileQuery()).catch(() => undefined);
      const zone = profile?.orgs.find((o) => o.name === invitation.zone_name);
      navigate(withZone(PATHS.dashboard, zone?.id), { replace: true });
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      let matched = false;
      for (const field of FIELDS) {
        if (fieldErrors[field]) {
          setError(field, { type: 'server', message: fieldErrors[field] });
          matched = true;
        }
      }
      setFormError(matched ? TEXTS.validation.summary : invitationProblem(error));
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid, () => setFormError(TEXTS.validation.summary))} noValidate>
      <Stack gap="sm">
        {formError && (
          <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {formError}
          </Alert>
        )}
        {needsPassword && (
          <>
            <NameFields firstname={register('firstname')} lastname={register('lastname')} errors={errors} />
            <input type="text" autoComplete="username" value={invitation.email} readOnly hidden />
            <NewPasswordFields
              password={register('password')}
              confirmation={register('password_confirmation')}
              errors={errors}
            />
          </>
        )}
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          {CONSOLE_TEXTS.acceptInvite.accept}
        </Button>
      </Stack>
    </form>
  );
}

/** /accept-invite?token=: shows the invitation and joins the zone. */
export function AcceptInvitePage() {
  usePageTitle(CONSOLE_TEXTS.acceptInvite.title);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => fetchInvitation(token, signal),
    enabled: token !== '',
    retry: false,
    meta: { onError: 'none' },
  });

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md">
      <Stack gap="md">
        <Title order={1} fz="h2">
          {CONSOLE_TEXTS.acceptInvite.title}
        </Title>
        {token === '' || invitation.isError ? (
          <>
            <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
              {token === '' ? CONSOLE_TEXTS.acceptInvite.invalid : invitationProblem(invitation.error)}
            </Alert>
            <Anchor component={Link} to={PATHS.login}>
              {CONSOLE_TEXTS.acceptInvite.toLogin}
            </Anchor>
          </>
        ) : invitation.isPending ? (
          <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />
        ) : (
          <>
            <Text>
              {CONSOLE_TEXTS.acceptInvite.invitedBy(
                invitation.data.invited_by,
                invitation.data.zone_name,
                invitation.data.account_name,
              )}
            </Text>
            <Text size="sm" c="dimmed">
              {CONSOLE_TEXTS.acceptInvite.details(invitation.data.email, formatUtc(invitation.data.expires_at))}
            </Text>
            <AcceptForm token={token} invitation={invitation.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
