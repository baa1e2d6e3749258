import type { PatchSeverity } from '../agent/agent-protocol.schema';
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

/** A device's pending patches of one severity: how many, and when the newest of them was published. */
export type SeverityPatches = {
  count: number;
  /** ISO 8601; null when any of them has no publication date (their age is then not told). */
  newestPublishedAt: string | null;
};

/** Pending patches by severity (those of a device, or those a policy's last result selected and still pending). */
export type PatchSummary = Partial<Record<PatchSeverity, SeverityPatches>>;

/** Most severe first. */
export const SEVERITY_ORDER: readonly PatchSeverity[] = ['critical', 'high', 'medium', 'low', 'none', 'unknown'];
export const SEVERITY_WORDS: Record<PatchSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  none: 'no-severity',
  unknown: 'unknown-severity',
};

const DAY_MS = 86_400_000;

/**
 * The age words of patches whose newest is `days` old, on the spec's outstanding-patch age
 * buckets (spec B section 9: under 15 days, 16–30, 31–60, 61–89, 90+), and the age in days
 * at which the words next change (null in the last bucket).
 */
export function patchAgeBucket(days: number): { words: string | null; changesAtDays: number | null } {
  if (days >= 90) return { words: '90 or more days old', changesAtDays: null };
  if (days > 60) return { words: 'older than 60 days', changesAtDays: 90 };
  if (days > 30) return { words: 'older than 30 days', changesAtDays: 61 };
  if (days > 15) return { words: 'older than 15 days', changesAtDays: 31 };
  return { words: null, changesAtDays: 16 };
}

/** Text that holds until `changesAt` (epoch ms; null: for good), when patch ages move it to another bucket. */
export type Worded = { text: string; changesAt: number | null };

/** The age words of patches whose newest was published at `newest` (null when unknown: no words, no change). */
export function patchAgeWords(newest: string | null, now: Date): Worded {
  const published = newest === null ? Number.NaN : Date.parse(newest);
  if (Number.isNaN(published)) return { text: '', changesAt: null };
  const { words, changesAtDays } = patchAgeBucket(Math.floor((now.getTime() - published) / DAY_MS));
  return {
    text: words ? ` ${words}` : '',
    changesAt: changesAtDays === null ? null : published + changesAtDays * DAY_MS,
  };
}

export function summaryCount(summary: PatchSummary, severity: PatchSeverity): number {
  return Math.max(0, Math.trunc(summary[severity]?.count ?? 0));
}

/**
 * "2 High patches older than 30 days", "1 Critical patch (and 3 more)": the most severe
 * patches of the summary, how old their newest is, and how many others there are; null
 * for an empty summary. `plural` says which verb follows.
 */
export function patchesPhrase(summary: PatchSummary, now: Date): (Worded & { plural: boolean }) | null {
  const worst = SEVERITY_ORDER.find((s) => summaryCount(summary, s) > 0);
  if (!worst) return null;
  const count = summaryCount(summary, worst);
  const total = SEVERITY_ORDER.reduce((n, s) => n + summaryCount(summary, s), 0);
  const age = patchAgeWords(summary[worst]?.newestPublishedAt ?? null, now);
  const more = total > count ? ` (and ${total - count} more)` : '';
  return {
    text: `${count} ${SEVERITY_WORDS[worst]} ${count === 1 ? 'patch' : 'patches'}${age.text}${more}`,
    changesAt: age.changesAt,
    plural: total > 1,
  };
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
  /**
   * Those of the last result's patches the device still reports pending, by severity (with
   * their age); absent or empty when none is (a package, a worklet, or all installed since).
   */
  patches?: PatchSummary;
  /** Exit code of the last worklet evaluation, when any. */
  evaluationExitCode: number | null;
};

/** "1 patch", "3 patches". */
export function patchesText(n: number): string {
  return `${n} ${n === 1 ? 'patch' : 'patches'}`;
}

/** Why a device has this status with this policy, in one sentence, and until when it holds. */
export function describePolicyStanding(s: PolicyStanding, now: Date): Worded {
  const name = `policy ${s.policyName}`;
  const selected = s.patches ? patchesPhrase(s.patches, now) : null;
  if (selected && s.status !== 'compliant' && s.lastResultStatus !== null) {
    // "2 High patches older than 30 days from policy Servers nightly …": the patches it is about, first.
    const what = `${selected.text} from ${name}`;
    const worded = (text: string): Worded => ({ text, changesAt: selected.changesAt });
    const are = selected.plural ? 'are' : 'is';
    if (s.status === 'pending') {
      if (s.simulated) {
        return worded(
          `Pending: ${what} ${selected.plural ? 'were' : 'was'} only simulated (the agent runs without --allow-changes).`,
        );
      }
      if (s.lastResultStatus === 'in_progress') return worded(`Pending: ${what} ${are} installing.`);
      if (s.lastResultStatus === 'pending')
        return worded(`Pending: ${what} ${selected.plural ? 'wait' : 'waits'} to install.`);
    } else if (s.lastResultStatus === 'error') {
      return worded(`Needs remediation: ${what} failed to install.`);
    } else if (s.lastResultStatus === 'timed_out') {
      return worded(`Needs remediation: ${what} did not install in time.`);
    }
  }
  return { text: plainReason(s), changesAt: null };
}

/** Why a device has this status with this policy, in one sentence. */
export function policyStandingReason(s: PolicyStanding, now: Date): string {
  return describePolicyStanding(s, now).text;
}

/** The reason without the patches' severities and ages (none known, or none left pending). */
function plainReason(s: PolicyStanding): string {
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
