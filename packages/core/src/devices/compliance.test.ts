import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATCH_SEVERITIES } from '../agent/agent-protocol.schema';
import { POLICY_RESULT_STATUSES } from '../policies/policy-runs.schema';
import type { PolicyStanding } from '../policies/policy-compliance';
import type { PatchSummary } from '../policies/policy-compliance';
import { deviceCompliance, worseOf } from './compliance';
import { COMPLIANCE_STATES, type Compliance } from './devices.schema';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const arbSeverityPatches = fc.record({
  count: fc.nat(20),
  newestPublishedAt: fc.option(
    fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: NOW, noInvalidDate: true }).map((d) => d.toISOString()),
    { nil: null },
  ),
});
const arbPatches: fc.Arbitrary<PatchSummary> = fc.dictionary(
  fc.constantFrom(...PATCH_SEVERITIES),
  arbSeverityPatches,
) as fc.Arbitrary<PatchSummary>;
const n = (count: number, newestPublishedAt: string | null = null) => ({ count, newestPublishedAt });

const arbStanding: fc.Arbitrary<PolicyStanding> = fc.record({
  policyName: fc.string({ minLength: 1, maxLength: 12 }),
  status: fc.constantFrom(...COMPLIANCE_STATES),
  lastResultStatus: fc.option(fc.constantFrom(...POLICY_RESULT_STATUSES), { nil: null }),
  simulated: fc.boolean(),
  patchCount: fc.nat(50),
  patches: fc.option(arbPatches, { nil: undefined }),
  evaluationExitCode: fc.option(fc.integer({ min: -1, max: 5 }), { nil: null }),
});
const worst = (states: Compliance[]) => states.reduce<Compliance>((w, s) => worseOf(w, s), 'compliant');

describe('deviceCompliance', () => {
  it('is the worst of its policy statuses when it has policies, whatever its patches', () => {
    fc.assert(
      fc.property(fc.array(arbStanding, { minLength: 1, maxLength: 6 }), arbPatches, (standings, patches) => {
        expect(deviceCompliance({ standings, patches, now: NOW }).state).toBe(worst(standings.map((s) => s.status)));
      }),
    );
  });

  it('does not depend on the order of its policies', () => {
    fc.assert(
      fc.property(
        fc.array(arbStanding, { maxLength: 6 }),
        arbPatches,
        fc.infiniteStream(fc.nat()),
        (standings, patches, seeds) => {
          const order = seeds[Symbol.iterator]();
          const shuffled = standings
            .map((s) => [order.next().value as number, s] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, s]) => s);
          expect(deviceCompliance({ standings: shuffled, patches, now: NOW })).toEqual(
            deviceCompliance({ standings, patches, now: NOW }),
          );
        },
      ),
    );
  });

  it('names a policy that decided the state', () => {
    fc.assert(
      fc.property(fc.array(arbStanding, { minLength: 1, maxLength: 6 }), (standings) => {
        const { state, reason } = deviceCompliance({ standings, patches: {}, now: NOW });
        const deciding = standings.filter((s) => s.status === state);
        if (state === 'compliant' && deciding.length > 1) expect(reason).toMatch(/^Up to date with all \d+/);
        else expect(deciding.some((s) => reason.includes(`policy ${s.policyName}`))).toBe(true);
      }),
    );
  });

  it('without policies, reads its pending patches: none compliant, Critical or High needs attention', () => {
    fc.assert(
      fc.property(arbPatches, (patches) => {
        const { state, reason } = deviceCompliance({ standings: [], patches, now: NOW });
        const total = Object.values(patches).reduce((sum, c) => sum + (c?.count ?? 0), 0);
        const urgent = (patches.critical?.count ?? 0) + (patches.high?.count ?? 0);
        expect(state).toBe(total === 0 ? 'compliant' : urgent > 0 ? 'needs_attention' : 'pending');
        expect(reason.length).toBeGreaterThan(0);
      }),
    );
  });

  it('says why in a sentence', () => {
    expect(deviceCompliance({ standings: [], patches: { high: n(2), low: n(1) }, now: NOW }).reason).toBe(
      '2 High patches pending, and no policy has run on this device.',
    );
    expect(
      deviceCompliance({
        standings: [
          {
            policyName: 'Servers nightly',
            status: 'needs_attention',
            lastResultStatus: 'timed_out',
            simulated: false,
            patchCount: 2,
            evaluationExitCode: null,
          },
          {
            policyName: 'Browsers',
            status: 'compliant',
            lastResultStatus: 'success',
            simulated: false,
            patchCount: 1,
            evaluationExitCode: null,
          },
        ],
        patches: { high: n(2) },
        now: NOW,
      }),
    ).toEqual({
      state: 'needs_attention',
      reason: 'Needs remediation: policy Servers nightly timed out: 2 patches not installed.',
      reasonChangesAt: null,
    });
  });

  it('tells the age of the patches a policy left, on the spec’s age buckets, and when that changes', () => {
    const failed: PolicyStanding = {
      policyName: 'Servers nightly',
      status: 'needs_attention',
      lastResultStatus: 'error',
      simulated: false,
      patchCount: 3,
      // The newest High patch is 40 days old at NOW: both are older than 30 days.
      patches: { high: n(2, '2026-01-21T09:00:00.000Z'), low: n(1, '2026-03-01T00:00:00.000Z') },
      evaluationExitCode: null,
    };
    expect(deviceCompliance({ standings: [failed], patches: {}, now: NOW })).toEqual({
      state: 'needs_attention',
      reason:
        'Needs remediation: 2 High patches older than 30 days (and 1 more) from policy Servers nightly failed to install.',
      // At 61 days old they are older than 60 days.
      reasonChangesAt: '2026-03-23T09:00:00.000Z',
    });
    const waiting = { ...failed, status: 'pending' as const, lastResultStatus: 'pending' as const };
    expect(deviceCompliance({ standings: [waiting], patches: {}, now: NOW }).reason).toBe(
      'Pending: 2 High patches older than 30 days (and 1 more) from policy Servers nightly wait to install.',
    );
    const fresh = { ...failed, patches: { critical: n(1, '2026-02-25T00:00:00.000Z') } };
    expect(deviceCompliance({ standings: [fresh], patches: {}, now: NOW })).toMatchObject({
      reason: 'Needs remediation: 1 Critical patch from policy Servers nightly failed to install.',
      reasonChangesAt: '2026-03-13T00:00:00.000Z',
    });
    expect(deviceCompliance({ standings: [], patches: { high: n(2, '2025-10-01T00:00:00.000Z') }, now: NOW })).toEqual({
      state: 'needs_attention',
      reason: '2 High patches 90 or more days old pending, and no policy has run on this device.',
      reasonChangesAt: null,
    });
  });

  it('words a reason that holds until it says it changes', () => {
    fc.assert(
      fc.property(
        fc.array(arbStanding, { maxLength: 4 }),
        arbPatches,
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        (standings, patches, later) => {
          const first = deviceCompliance({ standings, patches, now: NOW });
          const at = new Date(NOW.getTime() + later);
          const changesAt = first.reasonChangesAt === null ? Infinity : Date.parse(first.reasonChangesAt);
          expect(changesAt).toBeGreaterThan(NOW.getTime());
          if (at.getTime() < changesAt) expect(deviceCompliance({ standings, patches, now: at })).toEqual(first);
        },
      ),
    );
  });
});
