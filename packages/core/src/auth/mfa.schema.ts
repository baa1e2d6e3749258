import { z } from 'zod';

/** Multi-factor types (spec A section 4): `disabled`, `email` (mailed codes), `google` (an authenticator app, TOTP). */
export const MFA_TYPES = ['disabled', 'email', 'google'] as const;
export type MfaType = (typeof MFA_TYPES)[number];
/** The types a user can enrol in. */
export const MFA_FACTOR_TYPES = ['email', 'google'] as const;
export type MfaFactorType = (typeof MFA_FACTOR_TYPES)[number];

/** Constants of the second factor. */
export const MFA = {
  /** The sign-in code step lasts this long after the password was right. */
  challengeMinutes: 5,
  /** An e-mailed code works once, for this long. */
  emailCodeMinutes: 10,
  recoveryCodes: 10,
  /** Wrong codes in a row before the account locks like after wrong passwords. */
  maxWrongCodes: 10,
} as const;

/** A code as typed: spaces and dashes of a pasted code are dropped before checking. */
const code = z
  .string()
  .trim()
  .min(1, 'Enter the code.')
  .max(32, 'This code is too long.')
  .transform((c) => c.replace(/[\s-]/g, '').toLowerCase());

/** `POST /api/verifyTfa` and the enrolment confirmations: a 6-digit code, or a recovery code. */
export const ZTfaCodeBody = z.object({
  /** The authenticator app's or the e-mailed 6-digit code, or one of the recovery codes. */
  tfa_code: code,
});
export type TfaCodeBody = z.input<typeof ZTfaCodeBody>;

/** Disabling MFA or regenerating recovery codes: a current code, needed when the flag `require_code_to_disable_mfa` is on. */
export const ZTfaOptionalCodeBody = z.object({
  /** A current code (app, e-mailed, or a recovery code). */
  tfa_code: code.optional(),
});
export type TfaOptionalCodeBody = z.input<typeof ZTfaOptionalCodeBody>;

/** Starting an enrolment: which factor. */
export const ZTfaSetupBody = z.object({
  /** `google`: an authenticator app; `email`: codes mailed to the user's address. */
  type: z.enum(MFA_FACTOR_TYPES, { error: 'Choose an authenticator app or email codes.' }),
});
export type TfaSetupBody = z.infer<typeof ZTfaSetupBody>;

/** The answer to a setup: for an app, the secret (base32) and its QR code; for e-mail, where the code went. */
export const ZTfaSetup = z.object({
  type: z.enum(MFA_FACTOR_TYPES),
  /** App only: the shared secret, for typing it in when the QR code cannot be scanned. */
  secret: z.string().optional(),
  /** App only: the `otpauth://totp/…` URI the QR code holds. */
  otpauth_url: z.string().optional(),
  /** App only: the QR code as a PNG data URL. */
  qr_code: z.string().optional(),
  /** E-mail only: the address the confirmation code was sent to. */
  sent_to: z.string().optional(),
});
export type TfaSetup = z.infer<typeof ZTfaSetup>;

/** Recovery codes, shown once: each signs in once instead of a code. */
export const ZRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** `GET /api/users/self/tfa`: the caller's second factor. */
export const ZTfaStatus = z.object({
  tfa_type: z.enum(MFA_TYPES),
  /** Unused recovery codes left. */
  recovery_codes_left: z.number().int(),
  /** Whether a zone or the account of the user requires MFA. */
  required: z.boolean(),
  /** Whether disabling or regenerating needs a current code (the flag `require_code_to_disable_mfa`). */
  code_required_to_disable: z.boolean(),
});
export type TfaStatus = z.infer<typeof ZTfaStatus>;

/** `GET /api/user/gettfa?email=` (sign-in, with the pending challenge cookie). */
export const ZGetTfaQuery = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Must be a valid email.').max(320),
});
export type GetTfaQuery = z.infer<typeof ZGetTfaQuery>;

/** Which second factor the sign-in asks for. */
export const ZGetTfa = z.object({
  /** `disabled` with `enrol_required`: the user must enrol before a session is granted. */
  tfa_type: z.enum(MFA_TYPES),
  enrol_required: z.boolean(),
  /** E-mail type: a code was just mailed. */
  email_sent: z.boolean(),
});
export type GetTfa = z.infer<typeof ZGetTfa>;

/** `POST /api/verifyTfa` (and a sign-in enrolment's confirmation): signed in. */
export const ZTfaSignedIn = z.object({
  signed_in: z.literal(true),
  /** Only after an enrolment: the new recovery codes, shown once. */
  recovery_codes: z.array(z.string()).optional(),
});
export type TfaSignedIn = z.infer<typeof ZTfaSignedIn>;

/** `PUT …/require-mfa`, `PUT …/require-sso`. */
export const ZRequireBody = z.object({ enabled: z.boolean() });
export type RequireBody = z.infer<typeof ZRequireBody>;

/** `GET /api/orgs/{id}/security`: the zone's sign-in requirements. */
export const ZZoneSecurity = z.object({
  /** The zone's users must sign in with a second factor. */
  require_mfa: z.boolean(),
  /** The account requires MFA of all its users (set in global settings). */
  account_require_mfa: z.boolean(),
  /** The zone's users must sign in through the account's SAML connection (the zone's `saml.enabled`). */
  require_sso: z.boolean(),
  /** Whether the account has a SAML connection (required to turn `require_sso` on). */
  sso_available: z.boolean(),
});
export type ZoneSecurity = z.infer<typeof ZZoneSecurity>;

/** `GET/PUT /api/accounts/{accountId}/require-mfa`. */
export const ZAccountMfa = z.object({ require_mfa: z.boolean() });
export type AccountMfa = z.infer<typeof ZAccountMfa>;

/** Texts of the second factor (the e-mails, the API's errors and the console). */
export const MFA_TEXTS = {
  invalidCode: 'This code is not valid. Check it and try again.',
  noChallenge: 'Your sign-in expired. Enter your email and password again.',
  needed: 'Enter the code from your authenticator app or email to finish signing in.',
  enrolNeeded: 'Your organization requires multi-factor authentication. Set it up to finish signing in.',
  codeRequired: 'Enter a current code to change multi-factor authentication.',
  alreadyEnabled: 'Multi-factor authentication is already on. Turn it off first to change the method.',
  notEnabled: 'Multi-factor authentication is not on.',
  noSetup: 'Start the setup again: no enrolment is waiting for a code.',
  notEmailType: 'Codes are mailed only to users who chose email codes.',
  ssoUnavailable: 'Create a SAML connection for the account before requiring SSO.',
  mailSubject: (product: string) => `Your ${product} sign-in code`,
} as const;
