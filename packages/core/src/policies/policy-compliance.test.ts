import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLICY_RESULT_STATUSES } from './policy-runs.schema';
import { evaluationStandingOf, policyStandingReason, policyStatusCode, standingOf } from './policy-compliance';

describe('standingOf', () => {
  it('reads success as up to date, failures as needing remediation, open results as pending', () => {
    expect(standingOf('success')).toBe('compliant');
    expect(standingOf('error')).toBe('needs_attention');
    expect(standingOf('timed_out')).toBe('needs_attention');
    expect(standingOf('pending')).toBe('pending');
    expect(standingOf('in_progress')).toBe('pending');
    expect(standingOf('canceled')).toBeNull();
  });

  it('never makes a device up to date from a simulated (dry) run: it stays pending', () => {
    fc.assert(
      fc.property(fc.constantFrom(...POLICY_RESULT_STATUSES), (status) => {
        const standing = standingOf(status, true);
        expect(standing).not.toBe('compliant');
        expect(standing === null || standing === 'pending').toBe(true);
      }),
    );
  });

  it('reads a worklet evaluation: exit 0 up to date, anything else needs remediation', () => {
    expect(evaluationStandingOf(0)).toBe('compliant');
    fc.assert(
      fc.property(
        fc.integer().filter((n) => n !== 0),
        (n) => evaluationStandingOf(n) === 'needs_attention',
      ),
    );
    expect(evaluationStandingOf(null)).toBe('needs_attention');
  });
});

describe('policyStandingReason', () => {
  it('names the policy, what happened and the patches', () => {
    const base = { policyName: 'Servers nightly', simulated: false, patchCount: 2, evaluationExitCode: null };
    expect(policyStandingReason({ ...base, status: 'needs_attention', lastResultStatus: 'error' })).toBe(
      'Needs remediation: policy Servers nightly failed: 2 patches not installed.',
    );
    expect(policyStandingReason({ ...base, status: 'pending', lastResultStatus: 'success', simulated: true })).toBe(
      'Pending: policy Servers nightly ran as a simulation (the agent runs without --allow-changes): 2 patches not installed.',
    );
    expect(policyStandingReason({ ...base, status: 'compliant', lastResultStatus: 'success' })).toBe(
      'Up to date with policy Servers nightly.',
    );
  });
});

describe('policyStatusCode', () => {
  it("maps to the family's numbers", () => {
    expect([policyStatusCode('needs_attention'), policyStatusCode('compliant'), policyStatusCode('pending')]).toEqual([
      0, 1, 2,
    ]);
  });
});
