import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { TEXTS } from '../texts';
import { ZPassword } from './password';
import { ZEmail } from './signup.schema';

/** `POST /api/passwordReset` asking for a link: the address to send it to. */
export const ZPasswordResetRequest = z.object({ email: ZEmail });
export type PasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

const ZToken = z.string().min(1, 'This link has no reset token. Open the link from the email again.').max(128);

const newPasswordFields = {
  password: ZPassword,
  password_confirmation: z
    .string({ error: TEXTS.validation.required })
    .min(1, TEXTS.validation.required)
    .max(PASSWORD_MAX_LENGTH, `Value must be at most ${PASSWORD_MAX_LENGTH} characters.`),
};
const passwordsMatch: [
  (v: { password: string; password_confirmation: string }) => boolean,
  { path: string[]; message: string },
] = [
  (v) => v.password === v.password_confirmation,
  { path: ['password_confirmation'], message: 'Passwords do not match.' },
];

/** The reset page's form: the new password, twice (the sign-up rules). */
export const ZNewPasswordForm = z.object(newPasswordFields).refine(...passwordsMatch);
export type NewPasswordForm = z.infer<typeof ZNewPasswordForm>;

/** `POST /api/passwordReset` with the mailed token: the new password, twice. */
export const ZPasswordResetBody = z.object({ token: ZToken, ...newPasswordFields }).refine(...passwordsMatch);
export type PasswordResetBody = z.infer<typeof ZPasswordResetBody>;

/** Either form of `POST /api/passwordReset`; the presence of `token` tells them apart. */
export const ZPasswordResetPost = z.union([ZPasswordResetBody, ZPasswordResetRequest]);

/** `GET /api/passwordReset?token=`: whether the link still works (the page asks before showing its form). */
export const ZPasswordResetTokenQuery = z.object({ token: ZToken });
export const ZPasswordResetTokenState = z.object({ valid: z.literal(true), email: z.string() });
export type PasswordResetTokenState = z.infer<typeof ZPasswordResetTokenState>;

/** The answer to a link request: the same whether or not the address has an account. */
export const ZPasswordResetRequested = z.object({ message: z.string() });
export type PasswordResetRequested = z.infer<typeof ZPasswordResetRequested>;

/** The answer to a reset: whose password changed, and how many sessions were ended. */
export const ZPasswordResetDone = z.object({ email: z.string(), sessions_ended: z.number().int() });
export type PasswordResetDone = z.infer<typeof ZPasswordResetDone>;

/** `POST /api/users/verify-email`: the token of the link mailed at sign-up. */
export const ZVerifyEmailBody = z.object({
  token: z.string().min(1, 'This link has no verification token. Open the link from the email again.').max(128),
});
export const ZVerifyEmailResult = z.object({ email: z.string() });
export type VerifyEmailResult = z.infer<typeof ZVerifyEmailResult>;

/** `POST /api/users/verification-email`: send the verification link again. */
export const ZResendVerificationBody = z.object({ email: ZEmail });

/** A reset link works for an hour; a sign-up's verification link for three days (mail can wait in a queue). */
export const PASSWORD_RESET_LINK_MINUTES = 60;
export const VERIFICATION_LINK_HOURS = 72;

/** Texts of the password pages, the mails and the verification page. */
export const PASSWORD_RESET_TEXTS = {
  forgotTitle: 'Forgot Password',
  forgotIntro: 'Enter the email address of your account. We will send it a link to choose a new password.',
  send: 'Send Reset Link',
  resetTitle: 'Reset Password',
  resetFor: (email: string) => `Choose a new password for ${email}.`,
  resetSubmit: 'Set New Password',
  resetDone: (sessions: number) =>
    `Your password has been changed. Every session of your account was signed out (${sessions}). Sign in with the new password.`,
  checking: 'Checking the link…',
  missingToken: 'This link has no reset token. Open the link from the email again.',
  askAgain: 'Ask for a new link',
  toLogin: 'Go to sign-in',
  verifyTitle: 'Verify your email address',
  verifyIntro: 'Verify the email address of your new account to sign in.',
  verifyButton: 'Verify my email address',
  verifyDone: 'Your email address is verified. You can sign in now.',
  verifyMissingToken: 'This link has no verification token. Open the link from the email again.',
  requested:
    'If an account exists for this email address, we have sent it a link to reset the password. The link works once, for one hour.',
  linkGone: 'This password reset link has expired or was already used. Ask for a new one.',
  verificationGone: 'This verification link has expired or was already used. Sign in to get a new one.',
  verificationResent:
    'If this address has an account waiting for verification, we have sent it a new verification link.',
  resetSubject: (product: string) => `Reset your ${product} password`,
  changedSubject: (product: string) => `Your ${product} password was changed`,
  verifySubject: (product: string) => `Verify your email address for ${product}`,
} as const;
