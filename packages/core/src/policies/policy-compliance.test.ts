import { describe, expect, it } from 'vitest';
import {
  patchPolicyCompliance,
  policyStatusCode,
  requiredSoftwareCompliance,
  workletCompliance,
} from './policy-compliance';

describe('patchPolicyCompliance', () => {
  it('is compliant when the policy selects nothing, whatever happened before', () => {
    expect(patchPolicyCompliance([], 'error')).toBe('compliant');
  });
  it('needs attention after a failed or timed-out attempt', () => {
    expect(patchPolicyCompliance(['low'], 'error')).toBe('needs_attention');
    expect(patchPolicyCompliance(['low'], 'timed_out')).toBe('needs_attention');
  });
  it('rates waiting patches as the device list does', () => {
    expect(patchPolicyCompliance(['low', 'medium'], null)).toBe('pending');
    expect(patchPolicyCompliance(['low', 'critical'], 'success')).toBe('needs_attention');
  });
});

describe('workletCompliance', () => {
  it('reads exit 0 (or no evaluation) as compliant and anything else as pending', () => {
    expect(workletCompliance(0, null)).toBe('compliant');
    expect(workletCompliance(null, 'error')).toBe('compliant');
    expect(workletCompliance(1, null)).toBe('pending');
    expect(workletCompliance(-1, 'success')).toBe('pending');
    expect(workletCompliance(2, 'error')).toBe('needs_attention');
  });
});

describe('requiredSoftwareCompliance and policyStatusCode', () => {
  it('follows whether the package is missing and how the install went', () => {
    expect(requiredSoftwareCompliance(false, 'error')).toBe('compliant');
    expect(requiredSoftwareCompliance(true, 'in_progress')).toBe('pending');
    expect(requiredSoftwareCompliance(true, 'timed_out')).toBe('needs_attention');
  });
  it("maps to the family's numbers", () => {
    expect([policyStatusCode('needs_attention'), policyStatusCode('compliant'), policyStatusCode('pending')]).toEqual([
      0, 1, 2,
    ]);
  });
});
