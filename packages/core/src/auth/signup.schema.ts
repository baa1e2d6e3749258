import { z } from 'zod';
import {
  COMPANY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  ENDPOINTS_MAX,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from '../constants';
import { TEXTS } from '../texts';
import { ZPassword } from './password';

const required = (label: string) => z.string({ error: TEXTS.validation.namedRequired(label) }).trim();

export const ZEmail = z
  .string({ error: TEXTS.validation.required })
  .trim()
  .min(1, TEXTS.validation.required)
  .max(EMAIL_MAX_LENGTH, TEXTS.validation.email)
  .pipe(z.email(TEXTS.validation.email))
  .transform((v) => v.toLowerCase());

/** The sign-up form (spec A section 3 fields, section 5 rules). */
export const ZSignUpBody = z
  .object({
    /** First name, under 32 characters. */
    firstname: required('First name')
      .min(1, TEXTS.validation.namedRequired('First name'))
      .max(NAME_MAX_LENGTH, `First name must be under ${NAME_MAX_LENGTH + 1} characters.`),
    /** Last name, under 32 characters. */
    lastname: required('Last name')
      .min(1, TEXTS.validation.namedRequired('Last name'))
      .max(NAME_MAX_LENGTH, `Last name must be under ${NAME_MAX_LENGTH + 1} characters.`),
    /** The company; becomes the account name and its first zone's name. */
    company: required('Company name')
      .min(1, TEXTS.validation.namedRequired('Company name'))
      .max(COMPANY_NAME_MAX_LENGTH, `Company name must be at most ${COMPANY_NAME_MAX_LENGTH} characters.`),
    email: ZEmail,
    password: ZPassword,
    /** Repeats the password. */
    password_confirmation: z
      .string({ error: TEXTS.validation.required })
      .min(1, TEXTS.validation.required)
      .max(PASSWORD_MAX_LENGTH, `Value must be at most ${PASSWORD_MAX_LENGTH} characters.`),
    /** How many endpoints the company expects to manage. */
    endpoints: z.coerce
      .number({ error: TEXTS.validation.numberBetween(1, ENDPOINTS_MAX) })
      .int(TEXTS.validation.numberBetween(1, ENDPOINTS_MAX))
      .min(1, TEXTS.validation.numberBetween(1, ENDPOINTS_MAX))
      .max(ENDPOINTS_MAX, TEXTS.validation.numberBetween(1, ENDPOINTS_MAX)),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'Passwords do not match.',
  });
export type SignUpBody = z.infer<typeof ZSignUpBody>;

export const ZSignUpResult = z.object({
  account_id: z.number().int(),
  user_id: z.number().int(),
  zone_id: z.number().int(),
  email: z.string(),
  /** Where the console goes next: the login page, asking to follow the mailed verification link. */
  redirect: z.string(),
});
export type SignUpResult = z.infer<typeof ZSignUpResult>;
