import { Group, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../texts';

type NameFieldsProps = {
  firstname: UseFormRegisterReturn;
  lastname: UseFormRegisterReturn;
  errors: { firstname?: { message?: string }; lastname?: { message?: string } };
};

/** First and last name side by side, autofilled as the user's own name. */
export function NameFields({ firstname, lastname, errors }: NameFieldsProps) {
  return (
    <Group grow align="flex-start">
      <TextInput
        label={CONSOLE_TEXTS.profile.firstname}
        autoComplete="given-name"
        required
        {...firstname}
        error={errors.firstname?.message}
      />
      <TextInput
        label={CONSOLE_TEXTS.profile.lastname}
        autoComplete="family-name"
        required
        {...lastname}
        error={errors.lastname?.message}
      />
    </Group>
  );
}
