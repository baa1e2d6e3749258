import { ZPassword } from '@patchwell/core/auth/password';
import { ZEmail } from '@patchwell/core/auth/signup.schema';
import { TEXTS } from '@patchwell/core/texts';
import { nameField } from '@patchwell/core/users/users.schema';
import { z } from 'zod';

/** Names (under 32 characters) and e-mail. */
export const ZProfileForm = z.object({
  firstname: nameField('First name'),
  lastname: nameField('Last name'),
  email: ZEmail,
});
export type ProfileFormInput = z.input<typeof ZProfileForm>;
export type ProfileFormOutput = z.output<typeof ZProfileForm>;

/** Current, new and repeated password; the new one follows the shared password rules. */
export const ZPasswordForm = z
  .object({
    password: z.string().min(1, TEXTS.validation.required),
    password1: ZPassword,
    password2: z.string().min(1, TEXTS.validation.required),
  })
  .refine((v) => v.password1 === v.password2, { path: ['password2'], message: 'Passwords do not match.' });
export type PasswordFormInput = z.input<typeof ZPasswordForm>;
