import type { AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';
import { COMMAND_TIMEOUT_GRACE_S } from '../agent-api/commands-sweep';
import { COMMAND_TIMEOUTS_S } from '../modules/devices/devices.service';

/**
 * Timeout, creation and deadline of a command queued by the engine, as the console's own
 * queueing sets them: the sweep marks it `timed_out` once the deadline passes.
 */
export function commandTiming(type: AgentCommandType, now: Date) {
  const timeoutS = COMMAND_TIMEOUTS_S[type];
  return {
    timeoutS,
    createdAt: now,
    deadlineAt: new Date(now.getTime() + (timeoutS + COMMAND_TIMEOUT_GRACE_S) * 1000),
  };
}
