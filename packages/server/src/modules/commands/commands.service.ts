import type {
  AgentCommandArgs,
  AgentCommandType,
  CommandResultBody,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { CommandEvents } from './commands.events';
import {
  allocateCommandIds,
  cancelOpenCommands,
  findCommands,
  findDeviceCommand,
  findDevicesWithPendingCommands,
  findFailureContexts,
  type FailureContext,
  finishCommand,
  hasOpenInstallCommand,
  insertCommandRows,
  insertCommands,
  runCommandsInsertSql,
  takePendingCommands,
  timeOutCommands,
  type CommandRow,
  type Exec,
  type NewCommand,
} from './commands.store';
import { enqueueWebhookEvents, wantsWebhookEvent } from '../webhooks/webhooks.service';
import { PATCH_FAILED_ERROR_MAX, type PatchFailedPayload } from '@patchwell/core/webhooks/webhooks.schema';
import { commandTiming } from './commands.timing';

/**
 * Device commands, in one place: queueing (a person's action, or the engine's bulk with
 * preallocated ids), handing out at check-in, results, cancels (the sweep's timeouts are
 * in commands.sweep.ts). Callers (devices, installers, the policy engine, the agent API,
 * later remediation and remote control) use these functions only; a finished command is
 * announced once through {@link CommandEvents} `commandFinished`.
 *
 * Permission checks stay with the callers' services (they know the resource): these
 * functions take ids already checked to be the zone's.
 */

export type { CommandRow, NewCommand } from './commands.store';
export { commandTiming } from './commands.timing';

/** Whatever wakes devices' waiting check-ins (the agent runtime). */
export type Waker = { wake(deviceIds: number[]): Promise<void> };

type QueueCtx = Pick<AppContext, 'db' | 'clock'> & { agents: Waker };
type ResultCtx = Pick<AppContext, 'db' | 'clock'> & { commandEvents: CommandEvents };

/**
 * Queues one command per device (ids already checked to be the zone's) and wakes their
 * check-ins; returns the rows.
 */
export async function queueCommands(
  ctx: QueueCtx,
  input: {
    zoneId: number;
    deviceIds: number[];
    type: AgentCommandType;
    args: AgentCommandArgs;
    createdBy: number | null;
  },
): Promise<CommandRow[]> {
  const timing = commandTiming(input.type, ctx.clock.now(), input.args);
  const rows = await insertCommands(
    ctx.db,
    input.deviceIds.map((deviceId) => ({
      deviceId,
      organizationId: input.zoneId,
      type: input.type,
      args: input.args,
      createdBy: input.createdBy,
      ...timing,
    })),
  );
  await ctx.agents.wake(input.deviceIds);
  return rows;
}

/** `n` command ids for {@link queuePreparedCommands} (the engine names them on its results first). */
export function reserveCommandIds(tx: Exec, n: number): Promise<number[]> {
  return allocateCommandIds(tx, n);
}

/**
 * Queues many commands with reserved ids inside the caller's transaction (up to 100,000 in
 * a run: one JSON parameter per 10,000 rows). The caller wakes the devices after its commit.
 */
export function queuePreparedCommands(tx: Exec, commands: NewCommand[]): Promise<void> {
  return insertCommandRows(tx, commands);
}

/**
 * The statement that queues one command of `type` for each device of a policy run that drew a
 * command id, with `args`, its device's arguments over the run's targets `from`
 * (engine/run-targets.store.ts), which executes it inside the caller's transaction with the
 * run's results. The caller wakes the devices after its commit.
 */
export function runCommandsSql(run: {
  zoneId: number;
  type: AgentCommandType;
  createdBy: number | null;
  from: SQL;
  args: SQL;
  now: Date;
}): SQL {
  return runCommandsInsertSql({ ...run, timing: commandTiming(run.type, run.now) });
}

/** Hands out the device's pending commands (they become `in_progress`), oldest first. */
export function takeCommands(ctx: Pick<AppContext, 'db' | 'clock'>, deviceId: number): Promise<CommandRow[]> {
  return takePendingCommands(ctx.db, deviceId, ctx.clock.now());
}

/** Which of the devices have pending commands (many check-ins share this read). */
export function devicesWithPendingCommands(db: AppContext['db'], deviceIds: number[]): Promise<number[]> {
  return findDevicesWithPendingCommands(db, deviceIds);
}

/** A page of a device's commands, newest first (the device checked to be the zone's). */
export function listCommands(
  db: AppContext['db'],
  zoneId: number,
  deviceId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: CommandRow[]; size: number }> {
  return findCommands(db, zoneId, deviceId, page);
}

/** Whether the device has an open `install_package` command carrying the installer. */
export function hasOpenInstallerCommand(db: AppContext['db'], deviceId: number, installerId: string): Promise<boolean> {
  return hasOpenInstallCommand(db, deviceId, installerId);
}

const INSTALL_TYPES: ReadonlySet<AgentCommandType> = new Set(['install_updates', 'install_all', 'install_package']);

/** An install command that ended in error or timed out: a failed patch (decision 0012's "failures"). */
function isFailedInstall(row: CommandRow): boolean {
  return INSTALL_TYPES.has(row.type) && (row.status === 'error' || row.status === 'timed_out');
}

/** The `patch.failed` event of a failed install, with its device, zone and policy (read in the result's transaction). */
function patchFailedPayload(row: CommandRow, context: FailureContext | undefined): PatchFailedPayload {
  const names = row.args.names ?? [];
  const runOf = context?.policyId != null && context.runId != null ? context : null;
  return {
    device: { id: row.deviceId, name: context?.deviceName ?? '', hostname: context?.hostname ?? '' },
    zone: { id: row.organizationId, name: context?.zoneName ?? '' },
    command: {
      id: row.id,
      type: row.type,
      status: row.status,
      exit_code: row.exitCode,
      updates: names.length ? names : row.args.package ? [row.args.package] : [],
      policy_result_id: row.policyResultId,
      finished_at: row.finishedAt?.toISOString() ?? null,
    },
    policy: runOf && { id: runOf.policyId!, name: runOf.policyName ?? '', run_id: runOf.runId! },
    error: row.stderrTail ? row.stderrTail.slice(-PATCH_FAILED_ERROR_MAX) : null,
  };
}

/**
 * Enqueues `patch.failed` for the failed installs among `rows` (a result, or the sweep's
 * timeouts), in the caller's transaction; their context is read only for zones with a webhook
 * that wants the event, in one statement per zone, and each zone's events are one insert.
 */
async function announcePatchFailures(tx: Exec, rows: CommandRow[], now: Date): Promise<void> {
  const failed = rows.filter(isFailedInstall);
  for (const zoneId of new Set(failed.map((row) => row.organizationId))) {
    if (!(await wantsWebhookEvent(tx, zoneId, 'patch.failed'))) continue;
    const ours = failed.filter((r) => r.organizationId === zoneId);
    const contexts = await findFailureContexts(tx, ours);
    await enqueueWebhookEvents(
      tx,
      zoneId,
      'patch.failed',
      ours.map((row) => patchFailedPayload(row, contexts.get(row.id))),
      now,
    );
  }
}

/**
 * Marks up to `limit` commands past their deadline `timed_out` (the sweep's batch), with the
 * `patch.failed` of the installs among them in the same transaction; returns how many.
 */
export async function timeOutOverdue(ctx: Pick<AppContext, 'db'>, now: Date, limit: number): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const rows = await timeOutCommands(tx, now, limit);
    await announcePatchFailures(tx, rows, now);
    return rows.length;
  });
}

export type ResultOutcome = 'recorded' | 'unchanged' | 'not_found';

/**
 * Records a device's result for its command, once: another device's command is
 * `not_found`; one with a final status already (a repeated post, or timed out by the
 * sweep) is `unchanged`. A recorded result is announced as `commandFinished`.
 */
export async function recordResult(
  ctx: ResultCtx,
  deviceId: number,
  commandId: number,
  result: CommandResultBody,
): Promise<ResultOutcome> {
  const now = ctx.clock.now();
  const command = await findDeviceCommand(ctx.db, deviceId, commandId);
  if (!command) return 'not_found';
  if (command.status !== 'pending' && command.status !== 'in_progress') return 'unchanged';
  // The result and the webhooks' `patch.failed` it may raise commit together (outbox).
  const finished = await ctx.db.transaction(async (tx) => {
    const row = await finishCommand(tx, command, result, now);
    if (row) await announcePatchFailures(tx, [row], now);
    return row;
  });
  if (!finished) return 'unchanged';
  await ctx.commandEvents.commandFinished({ command: finished, result, at: now });
  return 'recorded';
}

/**
 * Cancels the zone's open commands among `commandIds` (a device that already took one may
 * still run it; its late result is then ignored). Each cancel is announced as
 * `commandFinished`, unless `announce` is false: a caller that owns every one of these
 * commands and has already recorded the cancel on its side (a remediation task canceled
 * over 10,000 devices) skips 10,000 events, as the sweep's timeouts do. Returns the canceled rows.
 */
export async function cancelCommands(
  ctx: ResultCtx,
  zoneId: number,
  commandIds: number[],
  options: { announce?: boolean } = {},
): Promise<CommandRow[]> {
  const now = ctx.clock.now();
  const rows = await cancelOpenCommands(ctx.db, zoneId, commandIds, now);
  if (options.announce === false) return rows;
  for (const command of rows) {
    await ctx.commandEvents.commandFinished({ command, result: { status: 'canceled' }, at: now });
  }
  return rows;
}
