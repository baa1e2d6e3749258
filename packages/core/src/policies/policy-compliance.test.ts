import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLICY_RESULT_STATUSES } from './policy-runs.schema';
import {
  evaluationStandingOf,
  patchAgeBucket,
  policyStandingReason,
  policyStatusCode,
  standingOf,
} from './policy-compliance';

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

const NOW = new Date('2026-03-02T09:00:00.000Z');

describe('patchAgeBucket', () => {
  it('follows the spec’s buckets: under 15 days, 16-30, 31-60, 61-89, 90+', () => {
    const words = (d: number) => patchAgeBucket(d).words;
    expect([0, 15, 16, 30, 31, 60, 61, 89, 90, 400].map(words)).toEqual([
      null,
      null,
      'older than 15 days',
      'older than 15 days',
      'older than 30 days',
      'older than 30 days',
      'older than 60 days',
      'older than 60 days',
      '90 or more days old',
      '90 or more days old',
    ]);
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 200 }), (d) => {
        const { words, changesAtDays } = patchAgeBucket(d);
        if (changesAtDays === null) return;
        expect(changesAtDays).toBeGreaterThan(d);
        expect(patchAgeBucket(changesAtDays - 1).words).toBe(words);
        expect(patchAgeBucket(changesAtDays).words).not.toBe(words);
      }),
    );
  });
});

describe('policyStandingReason', () => {
  it('names the policy, what happened and the patches', () => {
    const base = { policyName: 'Servers nightly', simulated: false, patchCount: 2, evaluationExitCode: null };
    expect(policyStandingReason({ ...base, status: 'needs_attention', lastResultStatus: 'error' }, NOW)).toBe(
      'Needs remediation: policy Servers nightly failed: 2 patches not installed.',
    );
    expect(
      policyStandingReason({ ...base, status: 'pending', lastResultStatus: 'success', simulated: true }, NOW),
    ).toBe(
      'Pending: policy Servers nightly ran as a simulation (the agent runs without --allow-changes): 2 patches not installed.',
    );
    expect(policyStandingReason({ ...base, status: 'compliant', lastResultStatus: 'success' }, NOW)).toBe(
      'Up to date with policy Servers nightly.',
    );
  });

  it('names the severity and age of the patches still pending, as the issue words it', () => {
    const base = { policyName: 'Servers nightly', simulated: false, patchCount: 2, evaluationExitCode: null };
    const patches = { high: { count: 2, newestPublishedAt: '2026-01-15T00:00:00.000Z' } };
    expect(policyStandingReason({ ...base, status: 'needs_attention', lastResultStatus: 'error', patches }, NOW)).toBe(
      'Needs remediation: 2 High patches older than 30 days from policy Servers nightly failed to install.',
    );
    expect(
      policyStandingReason({ ...base, status: 'needs_attention', lastResultStatus: 'timed_out', patches }, NOW),
    ).toBe('Needs remediation: 2 High patches older than 30 days from policy Servers nightly did not install in time.');
    expect(policyStandingReason({ ...base, status: 'pending', lastResultStatus: 'in_progress', patches }, NOW)).toBe(
      'Pending: 2 High patches older than 30 days from policy Servers nightly are installing.',
    );
    expect(
      policyStandingReason({ ...base, status: 'pending', lastResultStatus: 'success', simulated: true, patches }, NOW),
    ).toBe(
      'Pending: 2 High patches older than 30 days from policy Servers nightly were only simulated (the agent runs without --allow-changes).',
    );
    // Up to date says nothing of patches; an unknown publication date gives no age.
    expect(policyStandingReason({ ...base, status: 'compliant', lastResultStatus: 'success', patches }, NOW)).toBe(
      'Up to date with policy Servers nightly.',
    );
    const undated = { high: { count: 1, newestPublishedAt: null } };
    expect(
      policyStandingReason({ ...base, status: 'needs_attention', lastResultStatus: 'error', patches: undated }, NOW),
    ).toBe('Needs remediation: 1 High patch from policy Servers nightly failed to install.');
  });
});

describe('policyStatusCode', () => {
  it("maps to the family's numbers", () => {
    expect([policyStatusCode('needs_attention'), policyStatusCode('compliant'), policyStatusCode('pending')]).toEqual([
      0, 1, 2,
    ]);
  });
});
