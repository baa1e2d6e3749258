import type { AgentCommandArgs, AgentCommandType } from '@patchwell/core/agent/agent-protocol.schema';

/** Seconds the server waits for each command type's result before the grace. */
export const COMMAND_TIMEOUTS_S: Record<AgentCommandType, number> = {
  scan: 900,
  install_all: 7200,
  install_updates: 7200,
  install_package: 3600,
  remove_package: 3600,
  run_script: 900,
  reboot: 900,
  // The consent prompt's time, then the tunnel's own life (the session ends it, not the sweep).
  remote_session: 300,
};

/** Seconds past a command's own timeout before the server gives up on it. */
export const COMMAND_TIMEOUT_GRACE_S = 60;

/**
 * Timeout, creation and deadline of a command queued at `now`: the sweep marks it
 * `timed_out` once the deadline passes. A delayed reboot gets its delay on top.
 */
export function commandTiming(type: AgentCommandType, now: Date, args?: AgentCommandArgs) {
  const timeoutS = COMMAND_TIMEOUTS_S[type] + (type === 'reboot' ? (args?.delay_s ?? 0) : 0);
  return {
    timeoutS,
    createdAt: now,
    deadlineAt: new Date(now.getTime() + (timeoutS + COMMAND_TIMEOUT_GRACE_S) * 1000),
  };
}
