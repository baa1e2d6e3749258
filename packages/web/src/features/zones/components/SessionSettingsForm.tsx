import { zodResolver } from '@hookform/resolvers/zod';
import type { SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useId } from 'react';
import { useForm, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../../../texts';
import { ZSessionTimeForm, toSessionTimeInput, type SessionTimeInput } from '../session-time';

export type SessionSettingsFormProps = {
  /** The saved settings. */
  settings: SessionSettings;
  onSave: (values: SessionSettings) => Promise<void>;
  /** Tells the page whether there are unsaved changes (one prompt per page). */
  onDirtyChange?: (isDirty: boolean) => void;
};

function HoursMinutes({
  legend,
  prefix,
  register,
  errors,
}: {
  legend: string;
  prefix: 'lifetime' | 'idle';
  register: UseFormRegister<SessionTimeInput>;
  errors: FieldErrors<SessionTimeInput>;
}) {
  const errorId = useId();
  const message = errors[`${prefix}_hours`]?.message ?? errors[`${prefix}_minutes`]?.message;
  const describedBy = message ? errorId : undefined;
  return (
    <Fieldset legend={legend} variant="unstyled">
      <Group gap="sm" align="flex-start">
        <TextInput
          label={CONSOLE_TEXTS.session.hours}
          inputMode="numeric"
          w={120}
          {...register(`${prefix}_hours`)}
          error={!!message}
          aria-describedby={describedBy}
        />
        <TextInput
          label={CONSOLE_TEXTS.session.minutes}
          inputMode="numeric"
          w={120}
          {...register(`${prefix}_minutes`)}
          error={!!errors[`${prefix}_minutes`]}
          aria-describedby={describedBy}
        />
      </Group>
      {message && (
        <Text id={errorId} size="sm" c="var(--mantine-color-error)" mt={4}>
          {message}
        </Text>
      )}
    </Fieldset>
  );
}

/** Maximum session lifetime and idle timeout, each in hours and minutes (spec A sections 3, 5). */
export function SessionSettingsForm({ settings, onSave, onDirtyChange }: SessionSettingsFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<SessionTimeInput, unknown, SessionSettings>({
    resolver: zodResolver(ZSessionTimeForm),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: toSessionTimeInput(settings),
  });

  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  const onValid = async (values: SessionSettings) => {
    try {
      await onSave(values);
      reset(toSessionTimeInput(values));
    } catch {
      // onSave reported the failure; the values stay for another try.
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid)} noValidate aria-label={CONSOLE_TEXTS.session.title}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {CONSOLE_TEXTS.session.description}
        </Text>
        <HoursMinutes legend={CONSOLE_TEXTS.session.lifetime} prefix="lifetime" register={register} errors={errors} />
        <HoursMinutes legend={CONSOLE_TEXTS.session.idle} prefix="idle" register={register} errors={errors} />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {CONSOLE_TEXTS.session.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
