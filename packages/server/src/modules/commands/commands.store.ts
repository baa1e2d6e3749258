import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  AgentCommandArgs,
  AgentCommandType,
  CommandResultBody,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { copyRowsIn, queryRows } from '../../db/raw';
import { deviceCommands } from '../../db/devices.schema';

/**
 * The only SQL that writes `device_commands`: queueing (one by one or in bulk with
 * preallocated ids), handing out, results, cancels and the sweep's timeouts. Other stores
 * may read the table in joins (the engine copies command statuses onto its results).
 */

export type CommandRow = typeof deviceCommands.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A connection or a transaction: bulk queueing runs inside the caller's transaction. */
export type Exec = Db | Tx;

/** A command to insert with an id from {@link allocateCommandIds}. */
export type NewCommand = {
  id: number;
  deviceId: number;
  organizationId: number;
  type: AgentCommandType;
  args: AgentCommandArgs;
  timeoutS: number;
  createdBy: number | null;
  policyResultId: number | null;
  createdAt: Date;
  deadlineAt: Date;
};

function dateOrNull(s: string | null | undefined): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * `n` fresh command ids in one statement, so other rows (results, evaluations) can name them
 * on insert. They come back as one text value (20,000 rows would cross from PGlite's
 * WebAssembly one at a time).
 */
export async function allocateCommandIds(tx: Exec, n: number): Promise<number[]> {
  if (n === 0) return [];
  const [row] = await queryRows<{ ids: string }>(
    tx as Db,
    sql`select string_agg(nextval(s.c)::text, ',') as ids
          from (select pg_get_serial_sequence('device_commands', 'id')::regclass as c) s,
               generate_series(1, ${n})`,
  );
  return row!.ids.split(',').map(Number);
}

/**
 * Inserts commands with their preallocated ids, all in one COPY (a policy's run over 100,000
 * devices, a remediation batch's 20,000 jobs): cheaper than any INSERT on both databases.
 */
export async function insertCommandRows(db: Exec, rows: NewCommand[]): Promise<void> {
  await copyRowsIn(
    db,
    'device_commands',
    [
      'id',
      'device_id',
      'organization_id',
      'type',
      'args',
      'timeout_s',
      'created_by',
      'policy_result_id',
      'created_at',
      'deadline_at',
    ],
    rows.map((c) => [
      c.id,
      c.deviceId,
      c.organizationId,
      c.type,
      JSON.stringify(c.args),
      c.timeoutS,
      c.createdBy,
      c.policyResultId,
      c.createdAt.toISOString(),
      c.deadlineAt.toISOString(),
    ]),
  );
}

/** Queues commands (few: a person's action), returning the rows. */
export async function insertCommands(
  db: Exec,
  rows: Omit<NewCommand, 'id' | 'policyResultId'>[],
): Promise<CommandRow[]> {
  if (!rows.length) return [];
  return db.insert(deviceCommands).values(rows).returning();
}

/** A page of a device's commands, newest first. */
export async function findCommands(
  db: Db,
  zoneId: number,
  deviceId: number,
  options: { offset: number; limit: number },
): Promise<{ rows: CommandRow[]; size: number }> {
  const where = and(eq(deviceCommands.organizationId, zoneId), eq(deviceCommands.deviceId, deviceId));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(deviceCommands)
      .where(where)
      .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(deviceCommands)
      .where(where),
  ]);
  return { rows, size: total?.n ?? 0 };
}

/** Which of the devices have pending commands (one indexed read for many check-ins). */
export async function findDevicesWithPendingCommands(db: Db, deviceIds: number[]): Promise<number[]> {
  if (!deviceIds.length) return [];
  const rows = await db
    .selectDistinct({ deviceId: deviceCommands.deviceId })
    .from(deviceCommands)
    .where(and(inArray(deviceCommands.deviceId, deviceIds), eq(deviceCommands.status, 'pending')));
  return rows.map((r) => r.deviceId);
}

/** Hands out the device's pending commands: they become `in_progress`, oldest first. */
export async function takePendingCommands(db: Db, deviceId: number, now: Date): Promise<CommandRow[]> {
  const pending = db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), eq(deviceCommands.status, 'pending')))
    .orderBy(asc(deviceCommands.id))
    .limit(100)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'in_progress', startedAt: now })
    .where(inArray(deviceCommands.id, pending))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/** The device's command, or undefined when the id is another device's (or unknown). */
export async function findDeviceCommand(db: Db, deviceId: number, commandId: number): Promise<CommandRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.id, commandId), eq(deviceCommands.deviceId, deviceId)))
    .limit(1);
  return row;
}

/**
 * Writes a result onto an open command; returns the finished row, or undefined when the
 * command already had a final status (a repeated post, or timed out by the sweep meanwhile).
 */
export async function finishCommand(
  db: Exec,
  command: Pick<CommandRow, 'id' | 'startedAt'>,
  result: CommandResultBody,
  now: Date,
): Promise<CommandRow | undefined> {
  const [row] = await db
    .update(deviceCommands)
    .set({
      status: result.status,
      exitCode: result.exit_code ?? null,
      stdoutTail: result.stdout_tail ?? null,
      stderrTail: result.stderr_tail ?? null,
      data: result.data ?? null,
      startedAt: dateOrNull(result.started_at) ?? command.startedAt ?? now,
      finishedAt: dateOrNull(result.finished_at) ?? now,
    })
    .where(and(eq(deviceCommands.id, command.id), inArray(deviceCommands.status, ['pending', 'in_progress'])))
    .returning();
  return row;
}

/** Cancels the zone's open commands among `ids`; returns the rows it canceled. */
export async function cancelOpenCommands(db: Db, zoneId: number, ids: number[], now: Date): Promise<CommandRow[]> {
  if (!ids.length) return [];
  return db
    .update(deviceCommands)
    .set({ status: 'canceled', finishedAt: now })
    .where(
      and(
        eq(deviceCommands.organizationId, zoneId),
        inArray(deviceCommands.id, ids),
        inArray(deviceCommands.status, ['pending', 'in_progress']),
      ),
    )
    .returning();
}

/**
 * Marks up to `limit` open commands whose deadline passed as `timed_out`; returns them.
 * Rows another node is sweeping or a result is being written to are skipped, not waited for.
 */
export async function timeOutCommands(db: Exec, now: Date, limit: number): Promise<CommandRow[]> {
  const overdue = db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        inArray(deviceCommands.status, ['pending', 'in_progress']),
        sql`${deviceCommands.deadlineAt} < ${now.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(deviceCommands)
    .set({ status: 'timed_out', finishedAt: now })
    .where(inArray(deviceCommands.id, overdue))
    .returning();
}

/** Whether the device has a pending or in-progress `install_package` command carrying the installer. */
export async function hasOpenInstallCommand(db: Db, deviceId: number, installerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deviceCommands.id })
    .from(deviceCommands)
    .where(
      and(
        eq(deviceCommands.deviceId, deviceId),
        eq(deviceCommands.type, 'install_package'),
        inArray(deviceCommands.status, ['pending', 'in_progress']),
        sql`${deviceCommands.args} -> 'installer' ->> 'id' = ${installerId}`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** What a `patch.failed` webhook tells of a command besides the command: its device, zone and policy. */
export type FailureContext = {
  deviceName: string;
  hostname: string;
  zoneName: string;
  policyId: number | null;
  policyName: string | null;
  runId: number | null;
};

/**
 * The device, zone and (for a policy's command) policy and run of each command, by command
 * id, read in the caller's transaction: one statement for a sweep's thousand timeouts.
 */
export async function findFailureContexts(db: Exec, rows: CommandRow[]): Promise<Map<number, FailureContext>> {
  if (!rows.length) return new Map();
  const keys = rows.map((r) => ({ command_id: r.id, device_id: r.deviceId, result_id: r.policyResultId }));
  const found = await queryRows<FailureContext & { commandId: number }>(
    db as Db,
    sql`select v.command_id as "commandId", coalesce(d.custom_name, d.hostname) as "deviceName", d.hostname,
               o.name as "zoneName", p.id as "policyId", p.name as "policyName", r.run_id as "runId"
          from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as v(command_id int, device_id int, result_id int)
          join devices d on d.id = v.device_id
          join organizations o on o.id = d.organization_id
          left join policy_device_results r on r.id = v.result_id
          left join policies p on p.id = r.policy_id`,
  );
  return new Map(found.map(({ commandId, ...context }) => [Number(commandId), context]));
}

/**
 * The statement queuing the commands of a set-based policy run (engine/run-targets.store.ts):
 * one per row `t` of the run's targets (`from`) that drew a command id, for the result drawn
 * beside it, with its device's arguments (`args`, an expression over `from`), in one
 * INSERT … SELECT (nothing crosses to JavaScript). The run executes it inside its results'
 * statement, so that both read the devices' update names from one snapshot. Not sorted by id:
 * the ids are all new and land in the key's last pages in any order, and a sort of the rows
 * with their arguments spilled 45 MB to disk on PGlite.
 */
export function runCommandsInsertSql(run: {
  zoneId: number;
  type: AgentCommandType;
  createdBy: number | null;
  from: SQL;
  args: SQL;
  timing: { timeoutS: number; createdAt: Date; deadlineAt: Date };
}): SQL {
  return sql`
    insert into ${deviceCommands} (id, device_id, organization_id, type, args, timeout_s, created_by, policy_result_id,
           created_at, deadline_at)
    select t.command_id, t.device_id, ${run.zoneId}, ${run.type}, ${run.args}, ${run.timing.timeoutS}, ${run.createdBy},
           t.result_id, ${run.timing.createdAt.toISOString()}::timestamptz, ${run.timing.deadlineAt.toISOString()}::timestamptz
      from ${run.from}
     where t.command_id is not null`;
}
