import type { PatchSeverity } from '../agent/agent-protocol.schema';
import { patchesText, policyStandingReason, type PolicyStanding } from '../policies/policy-compliance';
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
 * when several share the worst status) or the patches.
 */

export type DeviceCompliance = { state: Compliance; reason: string };

/** Pending patches of a device, counted by severity. */
export type PatchCounts = Partial<Record<PatchSeverity, number>>;

export type ComplianceInput = {
  /** The device's statuses with the policies that target it. */
  standings: readonly PolicyStanding[];
  /** Its pending patches by severity. */
  patches: PatchCounts;
};

const RANK: Record<Compliance, number> = { compliant: 0, pending: 1, needs_attention: 2 };
const URGENT: readonly PatchSeverity[] = ['critical', 'high'];
const SEVERITY_ORDER: readonly PatchSeverity[] = ['critical', 'high', 'medium', 'low', 'none', 'unknown'];
const SEVERITY_WORDS: Record<PatchSeverity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  none: 'no-severity',
  unknown: 'unknown-severity',
};

/** The worse of two states. */
export function worseOf(a: Compliance, b: Compliance): Compliance {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Compliance from pending patches alone: none is compliant, a Critical or High one needs attention. */
export function complianceOf(severities: readonly PatchSeverity[]): Compliance {
  if (!severities.length) return 'compliant';
  return severities.some((s) => URGENT.includes(s)) ? 'needs_attention' : 'pending';
}

function count(patches: PatchCounts, s: PatchSeverity): number {
  return Math.max(0, Math.trunc(patches[s] ?? 0));
}

function fromPatches(patches: PatchCounts): DeviceCompliance {
  const total = SEVERITY_ORDER.reduce((n, s) => n + count(patches, s), 0);
  if (total === 0) return { state: 'compliant', reason: 'No pending patches, and no policy has run on this device.' };
  const urgent = URGENT.filter((s) => count(patches, s) > 0);
  if (urgent.length) {
    const parts = urgent.map((s) => `${count(patches, s)} ${SEVERITY_WORDS[s]}`).join(' and ');
    const n = urgent.reduce((sum, s) => sum + count(patches, s), 0);
    return {
      state: 'needs_attention',
      reason: `${parts} ${n === 1 ? 'patch' : 'patches'} pending, and no policy has run on this device.`,
    };
  }
  return {
    state: 'pending',
    reason: `${patchesText(total)} pending (none Critical or High), and no policy has run on this device.`,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A device's overall state and why (see the rule above). */
export function deviceCompliance(input: ComplianceInput): DeviceCompliance {
  if (!input.standings.length) return fromPatches(input.patches);
  const state = input.standings.reduce<Compliance>((worst, s) => worseOf(worst, s.status), 'compliant');
  // By policy name, then by reason, so the same standings in any order give the same sentence.
  const deciding = input.standings
    .filter((s) => s.status === state)
    .map((s) => [s.policyName, policyStandingReason(s)] as const)
    .sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]));
  if (state === 'compliant' && deciding.length > 1) {
    return { state, reason: `Up to date with all ${deciding.length} of its policies.` };
  }
  const first = deciding[0]![1];
  const more = deciding.length - 1;
  return { state, reason: more ? `${first} (and ${more} more ${more === 1 ? 'policy' : 'policies'})` : first };
}
