import type { PatchSeverity } from '../agent/agent-protocol.schema';
import { complianceOf } from '../devices/compliance';
import type { Compliance } from '../devices/devices.schema';
import { DEVICE_POLICY_STATUS_CODES, type PolicyResultStatus } from './policy-runs.schema';

/**
 * A device's compliance with one policy (compliant, pending, needs attention), from what
 * the policy would do there now and how its last attempt ended. A failed or timed-out last
 * attempt that left work undone needs attention; work not yet done is pending.
 */

const FAILED: ReadonlySet<PolicyResultStatus> = new Set(['error', 'timed_out']);

/**
 * Patch policy: nothing selected is compliant; after a failed attempt, needs attention;
 * otherwise as the device list rates pending patches (critical or high ones need attention).
 */
export function patchPolicyCompliance(
  selectedSeverities: readonly PatchSeverity[],
  lastResult: PolicyResultStatus | null,
): Compliance {
  if (selectedSeverities.length === 0) return 'compliant';
  if (lastResult && FAILED.has(lastResult)) return 'needs_attention';
  return complianceOf(selectedSeverities);
}

/**
 * Worklet policy, from the last evaluation's exit code: 0 (or no evaluation code, passed
 * as null) is compliant; anything else is pending remediation, or needs attention when the
 * last remediation failed.
 */
export function workletCompliance(
  evaluationExitCode: number | null,
  lastResult: PolicyResultStatus | null,
): Compliance {
  if (evaluationExitCode === null || evaluationExitCode === 0) return 'compliant';
  return lastResult && FAILED.has(lastResult) ? 'needs_attention' : 'pending';
}

/** Required-software policy: installed is compliant; missing is pending, or needs attention after a failed install. */
export function requiredSoftwareCompliance(isMissing: boolean, lastResult: PolicyResultStatus | null): Compliance {
  if (!isMissing) return 'compliant';
  return lastResult && FAILED.has(lastResult) ? 'needs_attention' : 'pending';
}

/** The family's `policy_status` number of a compliance (0 needs remediation, 1 up to date, 2 pending). */
export function policyStatusCode(compliance: Compliance): number {
  return DEVICE_POLICY_STATUS_CODES[compliance];
}
