import type { Compliance } from '../devices/devices.schema';
import { DEVICE_POLICY_STATUS_CODES, type PolicyResultStatus } from './policy-runs.schema';

/**
 * A device's status with one policy, the product family's `policy_status`: up to date (1),
 * pending (2) or needs remediation (0). Stored per device and policy; the words are our
 * compliance states (compliant, pending, needs_attention), so that a device's overall state
 * (devices/compliance.ts) and its policies' statuses read the same.
 *
 * The rule, from the policy's last result on the device:
 * - success → up to date; error or timed out → needs remediation; unless the agent only
 *   simulated it (a dry run changed nothing, so the device stays pending either way);
 * - pending or in progress → pending;
 * - canceled → no change (a deferral or a superseded run says nothing about the device).
 * A worklet's evaluation sets it too: exit 0 up to date, anything else needs remediation.
 */

/** How the console words a device's status with one policy (the family's names). */
export const POLICY_STATUS_LABELS: Record<Compliance, string> = {
  compliant: 'Up to date',
  pending: 'Pending',
  needs_attention: 'Needs remediation',
};

/** The status a policy result leaves; null leaves the device's status as it was. */
export function standingOf(status: PolicyResultStatus, simulated = false): Compliance | null {
  switch (status) {
    case 'success':
      return simulated ? 'pending' : 'compliant';
    case 'error':
    case 'timed_out':
      // A dry run changed nothing: it neither fixes nor breaks the device, whose work stays pending.
      return simulated ? 'pending' : 'needs_attention';
    case 'pending':
    case 'in_progress':
      return 'pending';
    default:
      return null;
  }
}

/** The status a worklet evaluation leaves: exit 0 is up to date, anything else needs remediation. */
export function evaluationStandingOf(exitCode: number | null): Compliance {
  return exitCode === 0 ? 'compliant' : 'needs_attention';
}

/** The family's `policy_status` number of a status (0 needs remediation, 1 up to date, 2 pending). */
export function policyStatusCode(compliance: Compliance): number {
  return DEVICE_POLICY_STATUS_CODES[compliance];
}

/** What a reason needs to know of a device's status with one policy. */
export type PolicyStanding = {
  /** The policy's name. */
  policyName: string;
  status: Compliance;
  /** The last result's status; null when only an evaluation set the status. */
  lastResultStatus: PolicyResultStatus | null;
  /** The last result was a dry run (the agent runs without --allow-changes). */
  simulated: boolean;
  /** Patches (or the package) the last result installs or tried to. */
  patchCount: number;
  /** Exit code of the last worklet evaluation, when any. */
  evaluationExitCode: number | null;
};

/** "1 patch", "3 patches". */
export function patchesText(n: number): string {
  return `${n} ${n === 1 ? 'patch' : 'patches'}`;
}

/** Why a device has this status with this policy, in one sentence. */
export function policyStandingReason(s: PolicyStanding): string {
  const name = `policy ${s.policyName}`;
  const work = s.patchCount > 0 ? `: ${patchesText(s.patchCount)}` : '';
  switch (s.status) {
    case 'compliant':
      return s.lastResultStatus === null && s.evaluationExitCode === 0
        ? `Up to date with ${name}: its evaluation exited 0.`
        : `Up to date with ${name}.`;
    case 'pending':
      if (s.simulated) {
        return `Pending: ${name} ran as a simulation (the agent runs without --allow-changes)${work ? `${work} not installed` : ''}.`;
      }
      if (s.lastResultStatus === 'in_progress')
        return `Pending: ${name} is running${work ? `${work} to install` : ''}.`;
      // A run that finished with work left: only a manual-approval policy does that.
      if (s.lastResultStatus === 'success') return `Pending: ${name} has patches waiting for approval.`;
      return `Pending: ${name} waits to run${work ? `${work} to install` : ''}.`;
    case 'needs_attention':
      if (s.lastResultStatus === 'error' || s.lastResultStatus === 'timed_out') {
        const how = s.lastResultStatus === 'error' ? 'failed' : 'timed out';
        return `Needs remediation: ${name} ${how}${work ? `${work} not installed` : ''}.`;
      }
      if (s.evaluationExitCode !== null) {
        return `Needs remediation: the evaluation of ${name} exited ${s.evaluationExitCode}.`;
      }
      return `Needs remediation: ${name} could not be carried out.`;
  }
}
