import type { PatchSeverity } from '../agent/agent-protocol.schema';
import type { Compliance } from './devices.schema';

const RANK: Record<PatchSeverity, number> = { critical: 5, high: 4, medium: 3, low: 2, unknown: 1, none: 0 };

/**
 * A device's compliance from its pending patches: none pending is compliant; a critical or
 * high one needs attention; anything else is pending.
 */
export function complianceOf(severities: readonly PatchSeverity[]): Compliance {
  if (!severities.length) return 'compliant';
  return severities.some((s) => RANK[s] >= RANK.high) ? 'needs_attention' : 'pending';
}
