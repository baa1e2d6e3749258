import { z } from 'zod';

/** `POST /api/users/unlock`: the token of the unlock link mailed to a locked user (public; the token is the proof). */
export const ZUnlockAccountBody = z.object({
  /** From the link's `token` query parameter. */
  token: z.string().min(1, 'This link has no unlock token.').max(128),
});
export type UnlockAccountBody = z.infer<typeof ZUnlockAccountBody>;

/** The answer: whose account is unlocked (the page offers to sign in with it). */
export const ZUnlockAccountResult = z.object({ email: z.string() });
export type UnlockAccountResult = z.infer<typeof ZUnlockAccountResult>;

/** Texts of the unlock e-mail and of the console page its link opens (`/console/unlock?token=…`). */
export const UNLOCK_TEXTS = {
  pageTitle: 'Unlock your account',
  intro: 'Your account was locked after too many failed sign-ins. Unlock it to sign in again.',
  button: 'Unlock my account',
  done: 'Your account is unlocked. You can sign in now.',
  signIn: 'Go to sign-in',
  missingToken: 'This link has no unlock token. Open the link from the email again.',
  mailSubject: (product: string) => `Your ${product} account was locked`,
} as const;
