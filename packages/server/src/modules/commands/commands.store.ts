import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type {
  AgentCommandArgs,
  AgentCommandType,
  CommandResultBody,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/raw';
import { deviceCommands } from '../../db/schema';

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

/** Rows per JSON-recordset statement: one parameter however many rows, so chunks can be large. */
const JSON_CHUNK = 10_000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function dateOrNull(s: string | null | undefined): Date | null {
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** `n` fresh command ids in one statement, so other rows (results, evaluations) can name them on insert. */
export async function allocateCommandIds(tx: Exec, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await queryRows<{ c: string | number }>(
    tx as Db,
    sql`select nextval(s.c) as c
          from (select pg_get_serial_sequence('device_commands', 'id')::regclass as c) s,
               generate_series(1, ${n})`,
  );
  return rows.map((row) => Number(row.c));
}

/**
 * Inserts commands with their preallocated ids. The rows travel as one JSON parameter per
 * chunk: building a 10-column multi-row VALUES list costs more in the driver than the insert.
 */
export async function insertCommandRows(db: Exec, rows: NewCommand[]): Promise<void> {
  for (const chunk of chunks(rows, JSON_CHUNK)) {
    const json = chunk.map((c) => ({
      id: c.id,
      device_id: c.deviceId,
      organization_id: c.organizationId,
      type: c.type,
      args: c.args,
      timeout_s: c.timeoutS,
      created_by: c.createdBy,
      policy_result_id: c.policyResultId,
      created_at: c.createdAt.toISOString(),
      deadline_at: c.deadlineAt.toISOString(),
    }));
    await db.execute(sql`
      insert into ${deviceCommands} (id, device_id, organization_id, type, args, timeout_s, created_by,
             policy_result_id, created_at, deadline_at)
      select id, device_id, organization_id, type, args, timeout_s, created_by, policy_result_id, created_at, deadline_at
        from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as v(id int, device_id int, organization_id int,
             type text, args jsonb, timeout_s int, created_by int, policy_result_id int, created_at timestamptz,
             deadline_at timestamptz)`);
  }
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
  db: Db,
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
 * Marks up to `limit` open commands whose deadline passed as `timed_out`; returns how many.
 * Rows another node is sweeping or a result is being written to are skipped, not waited for.
 */
export async function timeOutCommands(db: Db, now: Date, limit: number): Promise<number> {
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
  const rows = await db
    .update(deviceCommands)
    .set({ status: 'timed_out', finishedAt: now })
    .where(inArray(deviceCommands.id, overdue))
    .returning({ id: deviceCommands.id });
  return rows.length;
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
