import type { AppContext } from '../../context';
import type { CommandFinished } from '../commands/commands.events';
import { logDeviceOutcomes } from './activity.service';

/**
 * Agent-side outcomes in the activity log: each command a device finished (a scan, an
 * install, a reboot, a script) is one event with the device as actor, `via` agent, written
 * when the commands module announces it (subscribed in app.ts). A command the server
 * canceled is not the device's outcome (the person who canceled it is logged), but a
 * deferral the device's user chose is.
 */
export async function logCommandOutcome(ctx: Pick<AppContext, 'db' | 'clock'>, event: CommandFinished): Promise<void> {
  const { command, result } = event;
  if (result.status === 'canceled' && !result.notice) return;
  await logDeviceOutcomes(ctx, [
    {
      zoneId: command.organizationId,
      deviceId: command.deviceId,
      action: `agent.${command.type}`,
      object: { type: 'device', id: command.deviceId },
      details: {
        command_id: command.id,
        status: command.status,
        exit_code: command.exitCode,
        ...(command.policyResultId === null ? {} : { policy_result_id: command.policyResultId }),
        ...(result.notice ? { notice: result.notice.choice } : {}),
      },
    },
  ]);
}
