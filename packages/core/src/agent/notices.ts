import type { AgentCommandArgs, AgentCommandType } from './agent-protocol.schema';

/**
 * Whether a command is one a policy's notices and reboot behaviour apply to: installing
 * updates, or a worklet's remediation (never a read-only evaluation or an ad-hoc script).
 * The server adds `notice` and `reboot` to these commands only; the agent acts on them only.
 * Type-only imports, so the agent's bundle does not take in the schemas.
 */
export function carriesNotices(command: { type: AgentCommandType; args: Pick<AgentCommandArgs, 'purpose'> }): boolean {
  return (
    command.type === 'install_updates' ||
    command.type === 'install_all' ||
    (command.type === 'run_script' && command.args.purpose === 'remediate')
  );
}
