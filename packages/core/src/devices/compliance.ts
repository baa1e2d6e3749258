import type { PatchSeverity } from '../agent/agent-protocol.schema';
import {
  describePolicyStanding,
  patchAgeWords,
  patchesText,
  SEVERITY_ORDER,
  SEVERITY_WORDS,
  summaryCount,
  type PatchSummary,
  type PolicyStanding,
} from '../policies/policy-compliance';
import type { Compliance } from './devices.schema';

/**
 * A device's overall compliance, the one meaning every screen and count uses (the policy
 * list, the device list's badge and filter, the device's page, the dashboard):
 *
 * 1. A device with policies: the worst of its statuses with them (needs remediation, then
 *    pending, then up to date; policies/policy-compliance.ts says how each is set). Only
 *    the policies that still target the device count, the same ones the policy list counts.
 * 2. A device no policy has run on: from its pending patches. None is compliant; any
 *    Critical or High one needs attention; others are pending.
 *
 * The reason is one sentence naming what decided the state: the policy (the first by name
 * when several share the worst status) and the patches it is about, by severity and age
 * ("Needs remediation: 2 High patches older than 30 days from policy Servers nightly failed
 * to install."), or the device's own patches.
 */

export type DeviceCompliance = {
  state: Compliance;
  reason: string;
  /**
   * When the reason's words change by themselves, as the patches it names age into the next
   * bucket (ISO 8601); null when they never do. Whoever stores the reason words it again then.
   */
  reasonChangesAt: string | null;
};

export type ComplianceInput = {
  /** The device's statuses with the policies that target it. */
  standings: readonly PolicyStanding[];
  /** Its pending patches by severity, with the newest one's publication date. */
  patches: PatchSummary;
  /** The instant the reason speaks of (patch ages). */
  now: Date;
};

const RANK: Record<Compliance, number> = { compliant: 0, pending: 1, needs_attention: 2 };
const URGENT: readonly PatchSeverity[] = ['critical', 'high'];

/** The worse of two states. */
export function worseOf(a: Compliance, b: Compliance): Compliance {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Compliance from pending patches alone: none is compliant, a Critical or High one needs attention. */
export function complianceOf(severities: readonly PatchSeverity[]): Compliance {
  if (!severities.length) return 'compliant';
  return severities.some((s) => URGENT.includes(s)) ? 'needs_attention' : 'pending';
}

/** The newest publication date among these severities' patches; null when any is unknown. */
function newestOf(patches: PatchSummary, severities: readonly PatchSeverity[]): string | null {
  let newest: string | null = null;
  for (const s of severities) {
    if (summaryCount(patches, s) === 0) continue;
    const at = patches[s]?.newestPublishedAt ?? null;
    if (at === null || Number.isNaN(Date.parse(at))) return null;
    if (newest === null || Date.parse(at) > Date.parse(newest)) newest = at;
  }
  return newest;
}

const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function fromPatches(patches: PatchSummary, now: Date): DeviceCompliance {
  const total = SEVERITY_ORDER.reduce((n, s) => n + summaryCount(patches, s), 0);
  if (total === 0) {
    return {
      state: 'compliant',
      reason: 'No pending patches, and no policy has run on this device.',
      reasonChangesAt: null,
    };
  }
  const urgent = URGENT.filter((s) => summaryCount(patches, s) > 0);
  if (urgent.length) {
    const parts = urgent.map((s) => `${summaryCount(patches, s)} ${SEVERITY_WORDS[s]}`).join(' and ');
    const n = urgent.reduce((sum, s) => sum + summaryCount(patches, s), 0);
    const age = patchAgeWords(newestOf(patches, urgent), now);
    return {
      state: 'needs_attention',
      reason: `${parts} ${n === 1 ? 'patch' : 'patches'}${age.text} pending, and no policy has run on this device.`,
      reasonChangesAt: at(age.changesAt),
    };
  }
  const age = patchAgeWords(newestOf(patches, SEVERITY_ORDER), now);
  return {
    state: 'pending',
    reason: `${patchesText(total)}${age.text} pending (none Critical or High), and no policy has run on this device.`,
    reasonChangesAt: at(age.changesAt),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A device's overall state and why (see the rule above). */
export function deviceCompliance(input: ComplianceInput): DeviceCompliance {
  if (!input.standings.length) return fromPatches(input.patches, input.now);
  const state = input.standings.reduce<Compliance>((worst, s) => worseOf(worst, s.status), 'compliant');
  // By policy name, then by reason, so the same standings in any order give the same sentence.
  const deciding = input.standings
    .filter((s) => s.status === state)
    .map((s) => [s.policyName, describePolicyStanding(s, input.now)] as const)
    .sort((a, b) => compare(a[0], b[0]) || compare(a[1].text, b[1].text));
  if (state === 'compliant' && deciding.length > 1) {
    return { state, reason: `Up to date with all ${deciding.length} of its policies.`, reasonChangesAt: null };
  }
  const first = deciding[0]![1];
  const more = deciding.length - 1;
  return {
    state,
    reason: more ? `${first.text} (and ${more} more ${more === 1 ? 'policy' : 'policies'})` : first.text,
    reasonChangesAt: at(first.changesAt),
  };
}
