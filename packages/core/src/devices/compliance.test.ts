import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATCH_SEVERITIES } from '../agent/agent-protocol.schema';
import { POLICY_RESULT_STATUSES } from '../policies/policy-runs.schema';
import type { PolicyStanding } from '../policies/policy-compliance';
import { deviceCompliance, worseOf, type PatchCounts } from './compliance';
import { COMPLIANCE_STATES, type Compliance } from './devices.schema';

const arbStanding: fc.Arbitrary<PolicyStanding> = fc.record({
  policyName: fc.string({ minLength: 1, maxLength: 12 }),
  status: fc.constantFrom(...COMPLIANCE_STATES),
  lastResultStatus: fc.option(fc.constantFrom(...POLICY_RESULT_STATUSES), { nil: null }),
  simulated: fc.boolean(),
  patchCount: fc.nat(50),
  evaluationExitCode: fc.option(fc.integer({ min: -1, max: 5 }), { nil: null }),
});
const arbPatches: fc.Arbitrary<PatchCounts> = fc.dictionary(
  fc.constantFrom(...PATCH_SEVERITIES),
  fc.nat(20),
) as fc.Arbitrary<PatchCounts>;

const worst = (states: Compliance[]) => states.reduce<Compliance>((w, s) => worseOf(w, s), 'compliant');

describe('deviceCompliance', () => {
  it('is the worst of its policy statuses when it has policies, whatever its patches', () => {
    fc.assert(
      fc.property(fc.array(arbStanding, { minLength: 1, maxLength: 6 }), arbPatches, (standings, patches) => {
        expect(deviceCompliance({ standings, patches }).state).toBe(worst(standings.map((s) => s.status)));
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
          expect(deviceCompliance({ standings: shuffled, patches })).toEqual(deviceCompliance({ standings, patches }));
        },
      ),
    );
  });

  it('names a policy that decided the state', () => {
    fc.assert(
      fc.property(fc.array(arbStanding, { minLength: 1, maxLength: 6 }), (standings) => {
        const { state, reason } = deviceCompliance({ standings, patches: {} });
        const deciding = standings.filter((s) => s.status === state);
        if (state === 'compliant' && deciding.length > 1) expect(reason).toMatch(/^Up to date with all \d+/);
        else expect(deciding.some((s) => reason.includes(`policy ${s.policyName}`))).toBe(true);
      }),
    );
  });

  it('without policies, reads its pending patches: none compliant, Critical or High needs attention', () => {
    fc.assert(
      fc.property(arbPatches, (patches) => {
        const { state, reason } = deviceCompliance({ standings: [], patches });
        const total = Object.values(patches).reduce((n, c) => n + (c ?? 0), 0);
        const urgent = (patches.critical ?? 0) + (patches.high ?? 0);
        expect(state).toBe(total === 0 ? 'compliant' : urgent > 0 ? 'needs_attention' : 'pending');
        expect(reason.length).toBeGreaterThan(0);
      }),
    );
  });

  it('says why in a sentence', () => {
    expect(deviceCompliance({ standings: [], patches: { high: 2, low: 1 } }).reason).toBe(
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
        patches: { high: 2 },
      }),
    ).toEqual({
      state: 'needs_attention',
      reason: 'Needs remediation: policy Servers nightly timed out: 2 patches not installed.',
    });
  });
});
