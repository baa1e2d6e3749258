import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { errorText } from '../../api/error-text';
import { serverFieldErrors } from '../../api/field-errors';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { CONSOLE_TEXTS } from '../../texts';
import { NameFields } from '../../ui/NameFields';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { updateSelf } from '../users/users.api';
import { MfaSection } from '../mfa/MfaSection';
import {
  ZPasswordForm,
  ZProfileForm,
  type PasswordFormInput,
  type ProfileFormInput,
  type ProfileFormOutput,
} from './profile-forms';

/** Puts the server's field errors on the form's fields; true when any matched. */
function applyServerErrors<T extends string>(
  error: unknown,
  fields: readonly T[],
  setError: (name: T, error: { type: string; message: string }) => void,
): boolean {
  const fieldErrors = serverFieldErrors(error);
  let matched = false;
  for (const field of fields) {
    const message = fieldErrors[field];
    if (message) {
      setError(field, { type: 'server', message });
      matched = true;
    }
  }
  return matched;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title} maw={640}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function NameEmailForm({ onDirtyChange }: { onDirtyChange: (d: boolean) => void }) {
  const { profile, zone, zoneId = 0 } = useShell();
  const refreshProfile = useRefreshProfile(zoneId);
  const isSaml = !!zone?.saml.enabled;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(ZProfileForm),
    defaultValues: { firstname: profile.firstname, lastname: profile.lastname, email: profile.email },
  });

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const onValid = async (values: ProfileFormOutput) => {
    // The e-mail cannot change while the zone signs in through SAML (spec A section 5).
    const body = isSaml || values.email === profile.email.toLowerCase() ? { ...values, email: undefined } : values;
    try {
      await updateSelf(zoneId, profile.id, body);
      reset(values);
      notify.success(CONSOLE_TEXTS.profile.saved);
      await refreshProfile();
    } catch (error) {
      if (!applyServerErrors<FieldPath<ProfileFormInput>>(error, ['firstname', 'lastname', 'email'], setError))
        notify.error(errorText(error));
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <Stack gap="sm">
        <NameFields firstname={register('firstname')} lastname={register('lastname')} errors={errors} />
        {isSaml ? (
          <TextInput
            label={CONSOLE_TEXTS.users.email}
            value={profile.email}
            disabled
            readOnly
            description={CONSOLE_TEXTS.profile.emailSaml}
          />
        ) : (
          <TextInput
            label={CONSOLE_TEXTS.users.email}
            type="email"
            autoComplete="email"
            required
            {...register('email')}
            error={errors.email?.message}
          />
        )}
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {CONSOLE_TEXTS.common.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordForm({ onDirtyChange }: { onDirtyChange: (d: boolean) => void }) {
  const { profile, zoneId = 0 } = useShell();
  const empty = { password: '', password1: '', password2: '' };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<PasswordFormInput>({ resolver: zodResolver(ZPasswordForm), defaultValues: empty });

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const onValid = async (values: PasswordFormInput) => {
    try {
      await updateSelf(zoneId, profile.id, values);
      reset(empty);
      notify.success(CONSOLE_TEXTS.profile.passwordChanged);
    } catch (error) {
      if (!applyServerErrors<FieldPath<PasswordFormInput>>(error, ['password', 'password1', 'password2'], setError))
        notify.error(errorText(error));
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <Stack gap="sm">
        {/* Lets password managers tie the new password to this account. */}
        <input type="text" autoComplete="username" value={profile.email} readOnly hidden />
        <PasswordInput
          label={CONSOLE_TEXTS.profile.currentPassword}
          autoComplete="current-password"
          required
          {...register('password')}
          error={errors.password?.message}
        />
        <PasswordInput
          label={CONSOLE_TEXTS.profile.newPassword}
          autoComplete="new-password"
          required
          {...register('password1')}
          error={errors.password1?.message}
        />
        <PasswordInput
          label={CONSOLE_TEXTS.profile.repeatPassword}
          autoComplete="new-password"
          required
          {...register('password2')}
          error={errors.password2?.message}
        />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {CONSOLE_TEXTS.profile.changePassword}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /settings/profile: name, e-mail (not under SAML), password and multi-factor authentication. */
export function ProfilePage() {
  usePageTitle(CONSOLE_TEXTS.profile.title);
  const [dirty, setDirty] = useState({ profile: false, password: false });
  const onProfileDirty = useCallback((d: boolean) => setDirty((s) => ({ ...s, profile: d })), []);
  const onPasswordDirty = useCallback((d: boolean) => setDirty((s) => ({ ...s, password: d })), []);
  useUnsavedChangesPrompt(dirty.profile || dirty.password);
  return (
    <Stack gap="lg">
      <Title order={2} fz="h3">
        {CONSOLE_TEXTS.profile.title}
      </Title>
      <Section title={CONSOLE_TEXTS.profile.detailsSection}>
        <NameEmailForm onDirtyChange={onProfileDirty} />
      </Section>
      <Section title={CONSOLE_TEXTS.profile.passwordSection}>
        <PasswordForm onDirtyChange={onPasswordDirty} />
      </Section>
      <Section title={CONSOLE_TEXTS.mfa.section}>
        <MfaSection />
      </Section>
    </Stack>
  );
}
