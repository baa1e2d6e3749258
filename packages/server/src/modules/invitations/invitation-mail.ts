import { PRODUCT_NAME } from '@patchwell/core/constants';

/** What an invitation e-mail says. */
export type InvitationMailInput = {
  /** Invitee's first name, when known. */
  firstname: string;
  inviterName: string;
  zoneName: string;
  accountName: string;
  roleName: string;
  /** The acceptance link, token included. */
  link: string;
  expiresAt: Date;
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** `2026-03-09 9:00 AM UTC`: the console's date format (spec A section 9). */
function formatUtc(at: Date): string {
  const [date, time] = at.toISOString().split('T') as [string, string];
  const [h, m] = time.split(':').map(Number) as [number, number];
  return `${date} ${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'} UTC`;
}

/**
 * The invitation e-mail, as text and HTML. Names come from people, so the HTML escapes
 * them; the subject carries no link, so the token only ever appears in the body.
 */
export function invitationMail(input: InvitationMailInput): { subject: string; text: string; html: string } {
  const greeting = input.firstname ? `Hello ${input.firstname},` : 'Hello,';
  const invite = `${input.inviterName} invited you to the zone "${input.zoneName}" of ${input.accountName} on ${PRODUCT_NAME}, as ${input.roleName}.`;
  const expiry = `The link works once and expires on ${formatUtc(input.expiresAt)}.`;
  const ignore = 'If you did not expect this invitation, you can ignore this message.';
  const text = [greeting, '', invite, '', `Accept the invitation: ${input.link}`, '', expiry, ignore, ''].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(invite)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">Accept the invitation</a></p>`,
    `<p>${escapeHtml(expiry)} ${escapeHtml(ignore)}</p>`,
  ].join('\n');
  return { subject: `${input.inviterName} invited you to ${input.zoneName} on ${PRODUCT_NAME}`, text, html };
}
