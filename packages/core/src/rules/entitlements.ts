import { TEXTS } from '../texts';
import type { ZoneRoleId } from '../zones/roles';
import { CREATE_ZONE_TIER, PLAN_LABELS, meetsTier, tierRank, type Plan, type TierSubject } from './tiers';
import { trialState } from './trial';

/**
 * What a zone may do from its plan and trial: the one place the console and the server ask
 * (spec A sections 1, 4, 6 and spec B sections 1, 6). A feature needs a minimum tier
 * (patch 1, manage 2, tier3 3); a zone on an unexpired trial qualifies for every tier.
 *
 * Spec B section 1 lists what plans offer: "patching, software management, remote control,
 * single sign-on, role-based access, two-factor authentication and API access". It ties
 * only remote control (Complete) and zone creation (the parent at tier 3) to a tier; the
 * others are placed below, each with its reason.
 */
export const FEATURES = [
  'patching',
  'software_management',
  'worklets',
  'remote_control',
  'sso',
  'mfa_enforcement',
  'api_access',
  'role_based_access',
  'create_zone',
] as const;
export type Feature = (typeof FEATURES)[number];

type FeatureRule = {
  /** The lowest tier (1-3) whose plan includes the feature. */
  tier: 1 | 2 | 3;
  /** How the console names the feature in the 'Feature Unavailable' notice. */
  label: string;
};

/** The feature → minimum tier table. */
export const FEATURE_RULES: Record<Feature, FeatureRule> = {
  // Every plan patches: Basic's own key is `patch` (spec A section 1).
  patching: { tier: 1, label: 'Patching' },
  // Spec silent. Standard's key is `manage`: installing and removing software beyond patches
  // (required-software policies, uploaded installers) is what it adds to Basic.
  software_management: { tier: 2, label: 'Software management' },
  // Spec silent. Worklets (custom policies) are scripted management, the same step up from
  // patching as software management, so Standard as well.
  worklets: { tier: 2, label: 'Worklets' },
  // Spec B section 6: "Remote control needs its specific permission and the Complete plan".
  remote_control: { tier: 3, label: 'Remote control' },
  // Spec silent. SAML single sign-on (connections, verified domains, requiring SSO) is an
  // enterprise identity feature: Complete, as the plan meant for larger organisations.
  sso: { tier: 3, label: 'Single sign-on' },
  // Spec silent. A person's own second factor is never paywalled (security is not an
  // upsell), so enrolling stays on every plan; what Standard adds is *requiring* it of a
  // zone's or an account's users.
  mfa_enforcement: { tier: 2, label: 'Two-factor authentication enforcement' },
  // Spec silent. Creating API keys (automation against the public API) comes with Standard;
  // Basic is run from the console.
  api_access: { tier: 2, label: 'API access' },
  // Spec silent on the tier. Every plan has a zone's administrators and its read-only users
  // (one person runs a small fleet; letting someone look without changing anything is safety,
  // not an upsell); delegating part of a zone (billing, policies and groups, patching alone)
  // to the roles made for it is what a team needs, so Standard, as API access.
  role_based_access: { tier: 2, label: 'Role-based access' },
  // Spec A section 6: "create-zone needs the parent organisation at tier 3 or higher".
  create_zone: { tier: CREATE_ZONE_TIER, label: 'Multiple zones' },
};

/** The zone roles every plan may give (Zone Administrator, Read Only); the others need role-based access. */
export const ROLES_ON_EVERY_PLAN: readonly ZoneRoleId[] = [1, 2];

/** The feature giving a zone role needs, or null for a role every plan has. */
export function featureOfRole(roleId: number): Feature | null {
  return (ROLES_ON_EVERY_PLAN as readonly number[]).includes(roleId) ? null : 'role_based_access';
}

/** The feature each policy type belongs to: saving a policy of the type needs it. */
export const POLICY_TYPE_FEATURE = {
  patch: 'patching',
  custom: 'worklets',
  required_software: 'software_management',
} as const satisfies Record<'patch' | 'custom' | 'required_software', Feature>;

/** The texts of the upsell (spec B section 1 'Feature Unavailable'; spec A section 4 trial). */
export const ENTITLEMENT_TEXTS = {
  featureUnavailable: 'Feature Unavailable',
  trialExpired: TEXTS.trial.expired,
  upgradeNow: TEXTS.trial.upgrade,
  /** The body of the notice: which plan brings the feature. */
  needsPlan: (feature: string, plan: string) =>
    `${feature} is not included in your plan. Upgrade to the ${plan} plan to enable this feature.`,
  /** Said to users without Billing.Read, who cannot open billing themselves. */
  askBillingAdmin: 'Ask a user with billing rights in this zone to upgrade.',
  /** The server's refusal (403 `plans.feature_unavailable`). */
  refused: (feature: string, plan: string) =>
    `Feature Unavailable: ${feature} needs the ${plan} plan. Upgrade to the ${plan} plan to enable this feature.`,
  trialExpiredBody: 'Your trial has ended. Upgrade to keep using the features of your plan.',
  /** The activity log's reason when a trial's end disables a zone. */
  trialEndDisabled: 'The trial ended: trial zones beyond the first are disabled unless the account is on Complete.',
} as const;

/** The plan whose tier a feature needs (the lowest that includes it). */
export function planFor(feature: Feature): Plan {
  const tier = FEATURE_RULES[feature].tier;
  return tier === 1 ? 'patch' : tier === 2 ? 'manage' : 'tier3';
}

/** Its label (Basic, Standard, Complete). */
export function planLabelFor(feature: Feature): string {
  return PLAN_LABELS[planFor(feature)];
}

/**
 * May a zone use `feature`? Its plan rank must reach the feature's tier, or the zone is on
 * an unexpired trial. For `create_zone` pass the zone's parent organisation (spec A section 6).
 */
export function hasFeature(zone: TierSubject, feature: Feature, now: number = Date.now()): boolean {
  return meetsTier(zone, FEATURE_RULES[feature].tier, now);
}

/** Why a feature is out of reach, for the console's notice. */
export type Entitlement =
  | { kind: 'available' }
  /** Outside the plan; `trialExpired` when an ended trial is what took it away. */
  | { kind: 'unavailable'; plan: Plan; trialExpired: boolean };

/** {@link hasFeature} with the reason: the plan to upgrade to, and whether a trial just ended. */
export function entitlement(zone: TierSubject, feature: Feature, now: number = Date.now()): Entitlement {
  if (hasFeature(zone, feature, now)) return { kind: 'available' };
  return { kind: 'unavailable', plan: planFor(feature), trialExpired: trialState(zone, now).kind === 'expired' };
}

/** Every feature a zone has (for a summary, e.g. the billing page's current plan). */
export function featuresOf(zone: TierSubject, now: number = Date.now()): Feature[] {
  return FEATURES.filter((f) => hasFeature(zone, f, now));
}

/** The features a plan includes on its own, without a trial. */
export function planFeatures(plan: string): Feature[] {
  const rank = tierRank(plan);
  return FEATURES.filter((f) => FEATURE_RULES[f].tier <= rank);
}

/**
 * Who a trial's end disables (spec A section 1: "Trial zones beyond the first are disabled
 * unless the customer upgrades to Complete"): a zone whose trial ended, that is not the
 * account's first zone, while the account (its top-level organisation) is not on Complete.
 */
export function disabledAtTrialEnd(input: { isFirstZone: boolean; accountPlan: string | null }): boolean {
  return !input.isFirstZone && tierRank(input.accountPlan) < 3;
}
