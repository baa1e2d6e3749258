import { z } from 'zod';
import { FEATURE_FLAG_NAMES, type FeatureFlag } from '../shell/flags';
import { ACCOUNT_ROLES } from '../zones/roles';

export const USER_STATUSES = ['pending-invite', 'active', 'disabled'] as const;

/** A zone as listed in the profile (spec A section 3), with what the shell needs. */
export const ZProfileOrg = z.object({
  id: z.number().int(),
  zone_id: z.string().describe('Public zone identifier (uuid).'),
  name: z.string(),
  parent_id: z.number().int().nullable(),
  plan: z.string().nullable(),
  trial_end_time: z.string().nullable(),
  trial_expired: z.boolean(),
  disabled: z.boolean(),
  create_time: z.string(),
  saml: z.object({ enabled: z.boolean(), redirect: z.string().nullable() }),
});
export type ProfileOrg = z.infer<typeof ZProfileOrg>;

export const ZParentOrg = z.object({
  id: z.number().int(),
  plan: z.string().nullable(),
  trial_end_time: z.string().nullable(),
  trial_expired: z.boolean(),
});

export const ZRbacRoleEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  organization_id: z.number().int(),
});

export const ZPref = z.object({ user_id: z.number().int(), pref_name: z.string(), value: z.string() });

const featureShape = Object.fromEntries(FEATURE_FLAG_NAMES.map((f) => [f, z.boolean()])) as Record<
  FeatureFlag,
  z.ZodBoolean
>;
export const ZFeatures = z.object(featureShape);

/** `GET /api/users/self`: the signed-in user's profile, every field of spec A section 3. */
export const ZProfile = z.object({
  id: z.number().int(),
  uuid: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  account_id: z.number().int().nullable(),
  account_name: z.string().nullable(),
  account_created_at: z.string().nullable(),
  account_completed_qsg: z.boolean(),
  account_rbac_role: z.enum(ACCOUNT_ROLES),
  is_global_admin: z.boolean(),
  /** Zones the user may enter, sorted by name. */
  orgs: z.array(ZProfileOrg),
  /** The user's role in each zone. */
  rbac_roles: z.array(ZRbacRoleEntry),
  /** Role name in the zone named by `o` (or the first zone). */
  rbac_role: z.string().nullable(),
  parent_org: z.array(ZParentOrg),
  features: ZFeatures,
  locked: z.boolean(),
  saml_enabled: z.boolean(),
  tfa_enabled: z.boolean(),
  sso_enabled: z.boolean(),
  ext_auth0_skip_mfa: z.boolean(),
  server_groups: z.array(z.number().int()),
  tags: z.array(z.string()),
  status: z.enum(USER_STATUSES),
  metadata: z.object({ overviewReportRun: z.boolean(), prepatchReportRun: z.boolean() }),
  prefs: z.array(ZPref),
  /** Permission keys ("Resource.action") the user holds in each zone id. */
  permissions: z.record(z.string(), z.array(z.string())),
  /** Session bounds the server applies, so the console can warn before expiry. */
  session: z.object({ expires_at: z.string(), idle_timeout_minutes: z.number().int() }),
});
export type Profile = z.infer<typeof ZProfile>;

export const ZIsAuthenticated = z.literal(true);
