import { z } from 'zod';

/**
 * Invitations as global administrators list them (`GET /api/accounts/{accountId}/invitations`,
 * docs/api/zones-users-contract.md). The invite and accept payloads are in users.schema.ts.
 */

/** Where an invitation stands: pending until accepted, revoked, or past its expiry. */
export const INVITATION_STATES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export const ZInvitationState = z.enum(INVITATION_STATES);
export type InvitationState = z.infer<typeof ZInvitationState>;

/** One invitation of the account. */
export const ZAccountInvitation = z.object({
  /** Invitation id (for revoking). */
  id: z.number().int(),
  /** The invited e-mail. */
  email: z.string(),
  /** The invited user's id. */
  user_id: z.number().int(),
  /** Numeric id of the zone the invitation is for. */
  zone_id: z.number().int(),
  /** That zone's name. */
  zone_name: z.string(),
  /** Role granted in the zone. */
  role_id: z.number().int(),
  /** That role's name. */
  role_name: z.string(),
  /** Who invited (name or e-mail); null when that user was deleted. */
  invited_by: z.string().nullable(),
  /** When it was sent (ISO 8601). */
  created_at: z.string(),
  /** When the link stops working (ISO 8601). */
  expires_at: z.string(),
  /** When it was accepted (ISO 8601), else null. */
  accepted_at: z.string().nullable(),
  /** pending, accepted, revoked or expired. */
  state: ZInvitationState,
});
export type AccountInvitation = z.infer<typeof ZAccountInvitation>;
export const ZAccountInvitationList = z.array(ZAccountInvitation);
