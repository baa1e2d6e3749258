/**
 * Plans and tiers (spec A section 6, spec B section 1): Basic is key `patch`, Standard
 * `manage`, Complete `tier3`; they rank 1, 2 and 3. Keys also arrive in upper case
 * (BASIC, FULL, TIER3).
 */
export const PLANS = ['patch', 'manage', 'tier3'] as const;
export type Plan = (typeof PLANS)[number];

export const PLAN_LABELS: Record<Plan, string> = { patch: 'Basic', manage: 'Standard', tier3: 'Complete' };

const RANK: Record<string, number> = {
  patch: 1,
  basic: 1,
  manage: 2,
  full: 2,
  tier3: 3,
};

/** Rank of a plan key (1-3), 0 when unknown. */
export function tierRank(plan: string | null | undefined): number {
  if (!plan) return 0;
  return RANK[plan.toLowerCase()] ?? 0;
}

export type TierSubject = { plan: string | null; trial_end_time: string | null; trial_expired: boolean };

/** A zone with an unexpired trial qualifies; otherwise its plan rank must reach `required`. */
export function meetsTier(zone: TierSubject, required: number, now: number = Date.now()): boolean {
  if (zone.trial_end_time && !zone.trial_expired && new Date(zone.trial_end_time).getTime() > now) return true;
  return tierRank(zone.plan) >= required;
}

/** Creating a zone needs the parent organisation at tier 3 (Complete) or on an unexpired trial. */
export const CREATE_ZONE_TIER = 3;

/** May a new zone be created under `parent`? */
export function canCreateZoneUnder(parent: TierSubject, now: number = Date.now()): boolean {
  return meetsTier(parent, CREATE_ZONE_TIER, now);
}

/**
 * The single-zone restriction (spec A section 6): a user with one zone whose parent lacks
 * tier 3 works in that zone only (no zone creation, no switcher actions).
 */
export function isSingleZoneRestricted(zoneCount: number, parent: TierSubject, now: number = Date.now()): boolean {
  return zoneCount <= 1 && !meetsTier(parent, CREATE_ZONE_TIER, now);
}

/**
 * Trial zones beyond the first are disabled unless the customer upgrades to Complete:
 * a zone created while the parent is still on its trial (not a paid tier3 plan) starts
 * disabled when the account already has a zone.
 */
export function newZoneStartsDisabled(parent: TierSubject, existingZones: number, now: number = Date.now()): boolean {
  if (existingZones < 1) return false;
  const onTrial = !!parent.trial_end_time && !parent.trial_expired && new Date(parent.trial_end_time).getTime() > now;
  return onTrial;
}
