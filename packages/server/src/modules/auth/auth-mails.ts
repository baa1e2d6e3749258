import { PASSWORD_RESET_TEXTS, PASSWORD_RESET_LINK_MINUTES } from '@patchwell/core/auth/password-reset.schema';
import { PRODUCT_NAME } from '@patchwell/core/constants';

/** `2026-03-09 21:05 UTC`: when a link stops working, as the mails state it. */
const utc = (at: Date) => `${at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
const hello = (firstname: string) => (firstname ? `Hello ${firstname},` : 'Hello,');

/** The mails carry text only: the link is the one thing to click, and the subject never holds it. */
export function passwordResetMail(input: { firstname: string; link: string; expiresAt: Date }) {
  const text = [
    hello(input.firstname),
    '',
    `Someone asked to reset the password of your ${PRODUCT_NAME} account. To choose a new one, open:`,
    input.link,
    '',
    `The link works once, for ${PASSWORD_RESET_LINK_MINUTES} minutes (until ${utc(input.expiresAt)}).`,
    'Resetting the password signs you out everywhere, and lifts a sign-in lock.',
    'If you did not ask for it, ignore this message: your password stays as it is.',
    '',
  ].join('\n');
  return { subject: PASSWORD_RESET_TEXTS.resetSubject(PRODUCT_NAME), text };
}

export function passwordChangedMail(input: { firstname: string; at: Date; sessionsEnded: number }) {
  const text = [
    hello(input.firstname),
    '',
    `The password of your ${PRODUCT_NAME} account was changed at ${utc(input.at)} with a password reset link.`,
    `Every session was signed out (${input.sessionsEnded}).`,
    '',
    'If you did not do this, reset your password now from the sign-in page and tell your administrator.',
    '',
  ].join('\n');
  return { subject: PASSWORD_RESET_TEXTS.changedSubject(PRODUCT_NAME), text };
}

export function verificationMail(input: { firstname: string; link: string; expiresAt: Date }) {
  const text = [
    hello(input.firstname),
    '',
    `Welcome to ${PRODUCT_NAME}. To finish creating your account, verify your email address:`,
    input.link,
    '',
    `The link works once, until ${utc(input.expiresAt)}. You can sign in after following it.`,
    'If you did not sign up, ignore this message: no account will be usable with this address.',
    '',
  ].join('\n');
  return { subject: PASSWORD_RESET_TEXTS.verifySubject(PRODUCT_NAME), text };
}
