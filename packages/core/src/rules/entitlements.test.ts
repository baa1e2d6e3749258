import { describe, expect, it } from 'vitest';
import {
  FEATURES,
  disabledAtTrialEnd,
  entitlement,
  featureOfRole,
  hasFeature,
  planFeatures,
  planFor,
  type Feature,
} from './entitlements';
import type { Plan } from './tiers';
import { ZONE_ROLES } from '../zones/roles';

const now = Date.UTC(2026, 10, 21);
const DAY = 86_400_000;
const future = new Date(now + DAY).toISOString();
const past = new Date(now - DAY).toISOString();

/** The expected answer for a plan without a trial: the table the product promises. */
const TABLE: Record<Feature, Record<Plan, boolean>> = {
  patching: { patch: true, manage: true, tier3: true },
  software_management: { patch: false, manage: true, tier3: true },
  worklets: { patch: false, manage: true, tier3: true },
  remote_control: { patch: false, manage: false, tier3: true },
  sso: { patch: false, manage: false, tier3: true },
  mfa_enforcement: { patch: false, manage: true, tier3: true },
  api_access: { patch: false, manage: true, tier3: true },
  role_based_access: { patch: false, manage: true, tier3: true },
  create_zone: { patch: false, manage: false, tier3: true },
};

const TRIALS = {
  none: { trial_end_time: null, trial_expired: false },
  unexpired: { trial_end_time: future, trial_expired: false },
  'ended by time': { trial_end_time: past, trial_expired: false },
  'marked expired': { trial_end_time: future, trial_expired: true },
} as const;

const PLAN_KEYS: Plan[] = ['patch', 'manage', 'tier3'];

describe('hasFeature over plans × features × trial states', () => {
  const rows = FEATURES.flatMap((feature) =>
    PLAN_KEYS.flatMap((plan) =>
      Object.entries(TRIALS).map(([trial, fields]) => ({
        feature,
        plan,
        trial,
        fields,
        // An unexpired trial qualifies for every tier; otherwise the plan decides.
        expected: trial === 'unexpired' ? true : TABLE[feature][plan],
      })),
    ),
  );

  it.each(rows)('$feature on $plan with trial $trial → $expected', ({ feature, plan, fields, expected }) => {
    expect(hasFeature({ plan, ...fields }, feature, now)).toBe(expected);
  });

  it('covers every feature in the table', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...FEATURES].sort());
  });

  it('reads the upper-case keys BASIC, FULL and TIER3 like their lower-case plans', () => {
    for (const feature of FEATURES) {
      expect(hasFeature({ plan: 'BASIC', ...TRIALS.none }, feature, now)).toBe(TABLE[feature].patch);
      expect(hasFeature({ plan: 'FULL', ...TRIALS.none }, feature, now)).toBe(TABLE[feature].manage);
      expect(hasFeature({ plan: 'TIER3', ...TRIALS.none }, feature, now)).toBe(TABLE[feature].tier3);
    }
  });

  it('gives an unknown plan nothing once its trial is over', () => {
    expect(FEATURES.filter((f) => hasFeature({ plan: 'gold', ...TRIALS.none }, f, now))).toEqual([]);
  });

  it('ends the trial at its end time, not a millisecond later', () => {
    const end = new Date(now).toISOString();
    expect(hasFeature({ plan: 'patch', trial_end_time: end, trial_expired: false }, 'sso', now - 1)).toBe(true);
    expect(hasFeature({ plan: 'patch', trial_end_time: end, trial_expired: false }, 'sso', now)).toBe(false);
  });
});

describe('entitlement', () => {
  it('names the plan to upgrade to', () => {
    expect(entitlement({ plan: 'patch', ...TRIALS.none }, 'api_access', now)).toEqual({
      kind: 'unavailable',
      plan: 'manage',
      trialExpired: false,
    });
    expect(entitlement({ plan: 'manage', ...TRIALS.none }, 'remote_control', now)).toMatchObject({ plan: 'tier3' });
  });
  it('says when an ended trial took the feature away', () => {
    expect(entitlement({ plan: 'patch', ...TRIALS['ended by time'] }, 'sso', now)).toMatchObject({
      kind: 'unavailable',
      trialExpired: true,
    });
    expect(entitlement({ plan: 'patch', ...TRIALS.unexpired }, 'sso', now)).toEqual({ kind: 'available' });
  });
});

describe('planFor and planFeatures', () => {
  it('matches the table: a plan includes exactly the features whose lowest plan ranks at or below it', () => {
    for (const plan of PLAN_KEYS) {
      expect(planFeatures(plan)).toEqual(FEATURES.filter((f) => TABLE[f][plan]));
    }
    for (const feature of FEATURES) {
      const lowest = PLAN_KEYS.find((p) => TABLE[feature][p]);
      expect(planFor(feature)).toBe(lowest);
    }
  });
});

describe('disabledAtTrialEnd', () => {
  it.each([
    { isFirstZone: true, accountPlan: 'patch', expected: false },
    { isFirstZone: true, accountPlan: 'tier3', expected: false },
    { isFirstZone: false, accountPlan: 'patch', expected: true },
    { isFirstZone: false, accountPlan: 'manage', expected: true },
    { isFirstZone: false, accountPlan: 'TIER3', expected: false },
    { isFirstZone: false, accountPlan: 'tier3', expected: false },
  ])('first zone $isFirstZone, account on $accountPlan → disabled $expected', ({ expected, ...input }) => {
    expect(disabledAtTrialEnd(input)).toBe(expected);
  });
});

describe('featureOfRole', () => {
  it('gives Zone Administrator and Read Only on every plan, the delegated roles with role-based access', () => {
    expect(ZONE_ROLES.map((r) => [r.key, featureOfRole(r.id)])).toEqual([
      ['zone-admin', null],
      ['read-only', null],
      ['billing-admin', 'role_based_access'],
      ['zone-operator', 'role_based_access'],
      ['patch-operator', 'role_based_access'],
    ]);
  });
});
