import { PasswordInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../texts';

type NewPasswordFieldsProps = {
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  errors: { password?: { message?: string }; password_confirmation?: { message?: string } };
};

/** A new password and its confirmation, as sign-up and accepting an invitation ask for them. */
export function NewPasswordFields({ password, confirmation, errors }: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput
        label={CONSOLE_TEXTS.signup.password}
        autoComplete="new-password"
        required
        {...password}
        error={errors.password?.message}
      />
      <PasswordInput
        label={CONSOLE_TEXTS.signup.passwordConfirmation}
        autoComplete="new-password"
        required
        {...confirmation}
        error={errors.password_confirmation?.message}
      />
    </>
  );
}
