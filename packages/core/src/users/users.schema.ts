import { z } from 'zod';
import { NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '../constants';
import { ZPassword } from '../auth/password';
import { USER_STATUSES } from '../auth/profile.schema';
import { ZEmail } from '../auth/signup.schema';
import { TEXTS } from '../texts';
import { ACCOUNT_ROLES } from '../zones/roles';

const PASSWORD_TOO_LONG = `Value must be at most ${PASSWORD_MAX_LENGTH} characters.`;

/**
 * Payloads of the user, invitation and account-user endpoints
 * (docs/api/zones-users-contract.md). In these payloads `zone_id` is the numeric zone id
 * (the `o` of zone-scoped calls), not the zone's public uuid.
 */

export const ZUserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof ZUserStatus>;
export const ZAccountRole = z.enum(ACCOUNT_ROLES);
export type AccountRoleValue = z.infer<typeof ZAccountRole>;

/** A first or last name: required, under 32 characters. */
export function nameField(label: string) {
  return z
    .string({ error: TEXTS.validation.namedRequired(label) })
    .trim()
    .min(1, TEXTS.validation.namedRequired(label))
    .max(NAME_MAX_LENGTH, `${label} must be under ${NAME_MAX_LENGTH + 1} characters.`);
}

/** A role id chosen in a form: 'Role is required' when missing. */
export const ZRoleId = z
  .number({ error: TEXTS.users.roleRequired })
  .int(TEXTS.users.roleRequired)
  .positive(TEXTS.users.roleRequired);

/** Fields every listed user has. */
const userBase = {
  /** Numeric user id. */
  id: z.number().int(),
  /** Public user identifier. */
  uuid: z.string(),
  /** First name. */
  firstname: z.string(),
  /** Last name. */
  lastname: z.string(),
  /** Sign-in e-mail, lower case. */
  email: z.string(),
  /** pending-invite until the invitation is accepted; disabled users cannot sign in. */
  status: ZUserStatus,
  /** Locked after too many failed sign-ins until an administrator unlocks it. */
  locked: z.boolean(),
  /** Whether the user signs in with a second factor (an administrator can reset it). */
  tfa_enabled: z.boolean(),
  /** Account role: `global-admin` or `no-global-access`. */
  account_rbac_role: ZAccountRole,
  /** Creation time (ISO 8601). */
  created_at: z.string(),
  /** Last successful sign-in (ISO 8601), null when never. */
  last_signin_at: z.string().nullable(),
};

/** A user of zone `o` (`GET /api/users?o=`). */
export const ZZoneUser = z.object({
  ...userBase,
  /** The user's one role in zone `o`. */
  role: z.object({
    /** Role id. */
    id: z.number().int(),
    /** Role display name. */
    name: z.string(),
  }),
});
export type ZoneUser = z.infer<typeof ZZoneUser>;
export const ZZoneUserList = z.array(ZZoneUser);

/** `PUT /api/users/{id}?o=` by the caller on themself: names, e-mail and password change. */
export const ZUpdateSelfBody = z
  .object({
    /** New first name, under 32 characters. */
    firstname: nameField('First name').optional(),
    /** New last name, under 32 characters. */
    lastname: nameField('Last name').optional(),
    /** New e-mail; refused while the zone has SAML sign-on. */
    email: ZEmail.optional(),
    /** Current password, required to set a new one. */
    password: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG).optional(),
    /** The new password. */
    password1: ZPassword.optional(),
    /** The new password repeated. */
    password2: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password1 === undefined) return;
    if (!v.password) ctx.addIssue({ code: 'custom', path: ['password'], message: TEXTS.validation.required });
    if (v.password1 !== v.password2)
      ctx.addIssue({ code: 'custom', path: ['password2'], message: 'Passwords do not match.' });
  });
export type UpdateSelfBody = z.infer<typeof ZUpdateSelfBody>;

/** `PUT /api/users/{id}?o=` by an administrator on another user of zone `o` (Users.modify). */
export const ZUpdateZoneUserBody = z
  .object({
    /** The user's new role in zone `o`. */
    role_id: ZRoleId.optional(),
    /** Enable or disable the user; disabling ends their sessions and API keys at once. */
    status: z.enum(['active', 'disabled']).optional(),
  })
  .refine((v) => v.role_id !== undefined || v.status !== undefined, {
    message: TEXTS.validation.atLeastOne,
  });
export type UpdateZoneUserBody = z.infer<typeof ZUpdateZoneUserBody>;

/** `POST /api/users/unlockaccount?o=`. */
export const ZUnlockUserBody = z.object({
  /** The locked user's id. */
  userid: z.number().int().positive(),
});
export type UnlockUserBody = z.infer<typeof ZUnlockUserBody>;

/** `POST /api/inviteUser?o=`: invite someone into zone `o` with a role. */
export const ZInviteUserBody = z.object({
  /** Who to invite; 'This user already exists in this Zone' (409) when already a member. */
  email: ZEmail,
  /** First name, when known. */
  firstname: nameField('First name').optional(),
  /** Last name, when known. */
  lastname: nameField('Last name').optional(),
  /** Role in zone `o`. */
  role_id: ZRoleId,
});
export type InviteUserBody = z.infer<typeof ZInviteUserBody>;

/** 201 answer of `POST /api/inviteUser`. */
export const ZInviteUserResult = z.object({
  /** The invitation created. */
  invitation_id: z.number().int(),
  /** The invited user (new or existing). */
  user_id: z.number().int(),
  /** Always pending-invite until accepted. */
  status: z.literal('pending-invite'),
  /** What became of the e-mail: `sent` through the relay, `queued` in the outbox (no relay configured), `failed`. */
  mail: z.enum(['sent', 'queued', 'failed']).optional(),
  /**
   * The acceptance link to hand over another way, when the e-mail was not sent and the caller
   * may read the account's outbox (its global administrators); null otherwise.
   */
  accept_link: z.string().nullable().optional(),
});
export type InviteUserResult = z.infer<typeof ZInviteUserResult>;

/** `GET /api/invitations/{token}` (public): what the acceptance page shows. */
export const ZInvitation = z.object({
  /** The invited e-mail. */
  email: z.string(),
  /** The zone the invitation is for. */
  zone_name: z.string(),
  /** The account owning that zone. */
  account_name: z.string(),
  /** Who invited (name or e-mail). */
  invited_by: z.string(),
  /** When the link stops working (ISO 8601). */
  expires_at: z.string(),
  /** True for a new user, who must choose a password (and give names). */
  needs_password: z.boolean(),
});
export type Invitation = z.infer<typeof ZInvitation>;

/**
 * `POST /api/invitations/{token}/accept`. Names and password are needed only for a new
 * user (`needs_password`); the server enforces that, this schema checks what is sent.
 */
export const ZAcceptInvitationBody = z
  .object({
    /** First name, under 32 characters. */
    firstname: nameField('First name').optional(),
    /** Last name, under 32 characters. */
    lastname: nameField('Last name').optional(),
    /** The new user's password. */
    password: ZPassword.optional(),
    /** The password repeated. */
    password_confirmation: z.string().max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG).optional(),
  })
  .refine((v) => v.password === undefined || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: 'Passwords do not match.',
  });
export type AcceptInvitationBody = z.infer<typeof ZAcceptInvitationBody>;

/** 200 answer of the acceptance; the user is signed in by cookie. */
export const ZAcceptInvitationResult = z.object({
  /** The signed-in user's e-mail. */
  email: z.string(),
});
export type AcceptInvitationResult = z.infer<typeof ZAcceptInvitationResult>;

/** One zone/role pair of an account user as listed. */
export const ZUserZoneRole = z.object({
  /** Numeric zone id. */
  zone_id: z.number().int(),
  /** Zone name. */
  zone_name: z.string(),
  /** Role id in that zone. */
  role_id: z.number().int(),
  /** Role name in that zone. */
  role_name: z.string(),
});
export type UserZoneRole = z.infer<typeof ZUserZoneRole>;

/** A user of the account (`GET /api/accounts/{accountId}/users[/{userId}]`). */
export const ZAccountUser = z.object({
  ...userBase,
  /** Every zone the user belongs to with the role held there. */
  zones: z.array(ZUserZoneRole),
  /** Only in the answer of creating the user: what became of their invitation e-mail (see ZInviteUserResult). */
  invitation: ZInviteUserResult.pick({ mail: true, accept_link: true }).optional(),
});
export type AccountUser = z.infer<typeof ZAccountUser>;
export const ZAccountUserList = z.array(ZAccountUser);

/** One zone/role pair to assign ('Zone is required', 'Role is required'). */
export const ZZoneAssignment = z.object({
  /** Numeric zone id. */
  zone_id: z
    .number({ error: TEXTS.validation.namedRequired('Zone') })
    .int()
    .positive(TEXTS.validation.namedRequired('Zone')),
  /** Role id in that zone. */
  role_id: ZRoleId,
});
export type ZoneAssignment = z.infer<typeof ZZoneAssignment>;

/** The full list of zone/role pairs; a zone twice is 'This user already exists in this Zone'. */
export const ZZoneAssignments = z
  .array(ZZoneAssignment)
  .max(10_000)
  .superRefine((rows, ctx) => {
    const seen = new Set<number>();
    rows.forEach((row, i) => {
      if (seen.has(row.zone_id))
        ctx.addIssue({ code: 'custom', path: [i, 'zone_id'], message: TEXTS.users.alreadyInZone });
      seen.add(row.zone_id);
    });
  });

/** `POST /api/accounts/{accountId}/users`: create a user and send the invitation. */
export const ZCreateAccountUserBody = z.object({
  /** Sign-in e-mail; 'This email address is already in use.' (409) when taken. */
  email: ZEmail,
  /** First name, under 32 characters. */
  firstname: nameField('First name'),
  /** Last name, under 32 characters. */
  lastname: nameField('Last name'),
  /** Account role. */
  account_rbac_role: ZAccountRole,
  /** Zones to join, each with one role. */
  zones: ZZoneAssignments,
});
export type CreateAccountUserBody = z.infer<typeof ZCreateAccountUserBody>;

/** `PUT /api/accounts/{accountId}/users/{userId}`: fields sent are replaced. */
export const ZUpdateAccountUserBody = z.object({
  /** First name, under 32 characters. */
  firstname: nameField('First name').optional(),
  /** Last name, under 32 characters. */
  lastname: nameField('Last name').optional(),
  /** Account role. */
  account_rbac_role: ZAccountRole.optional(),
  /** Enable or disable the user. */
  status: z.enum(['active', 'disabled']).optional(),
  /** The full list of zone/role pairs (replaces the previous one). */
  zones: ZZoneAssignments.optional(),
});
export type UpdateAccountUserBody = z.infer<typeof ZUpdateAccountUserBody>;
