import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Compliance } from '@patchwell/core/devices/devices.schema';
import { evaluationStandingOf } from '@patchwell/core/policies/policy-compliance';
import type { Db } from '../db/client';
import {
  devicePolicyStatus,
  policyDeviceResults,
  policyEvaluations,
  policyRunChanges,
  policyRuns,
  type ResultStatus,
} from '../db/policies.schema';
import { queryRows } from '../db/raw';
import { deviceCommands, devicePresence, devices } from '../db/devices.schema';
import { refreshCompliance } from '../modules/devices/compliance.store';
import { insideWindowSql } from '../modules/maintenance-windows/maintenance-windows.store';
import { chunks, type ResultRow, type Tx } from './engine.store';

/**
 * SQL of per-device results, the commands that carry them out, and devices' standing
 * against policies. Bulk writes go in chunks, one statement per chunk.
 */

type Exec = Db | Tx;

/**
 * How a new standing (table alias `s`) merges into the stored one: what the new row leaves
 * null is kept, and a result older than the stored one never overwrites it. The one rule for
 * every writer of `device_policy_status` (this file and run-targets.store.ts).
 */
export const STANDING_MERGE = sql`on conflict (device_id, policy_id) do update set
  status = excluded.status,
  last_result_id = coalesce(excluded.last_result_id, s.last_result_id),
  last_result_status = coalesce(excluded.last_result_status, s.last_result_status),
  last_run_at = coalesce(excluded.last_run_at, s.last_run_at),
  next_patch_time = coalesce(excluded.next_patch_time, s.next_patch_time),
  updated_at = excluded.updated_at
  where s.last_result_id is null or excluded.last_result_id is null or excluded.last_result_id >= s.last_result_id`;

/**
 * Notes the runs of results whose status a statement changed, for the tick's recount
 * ({@link refreshOpenRuns}): `runIds`, a query of `run_id`s (repeats noted once), typically
 * the changed rows a CTE returned. Each note draws a new `version`, so a tick that read an
 * older one keeps the note. The rows are locked in run order: two writers noting the same
 * runs wait for each other instead of deadlocking.
 */
export function noteRunsChangedSql(runIds: SQL): SQL {
  return sql`insert into ${policyRunChanges} (run_id)
             select distinct n.run_id from (${runIds}) n order by n.run_id
             on conflict (run_id) do update set version = excluded.version`;
}

/** {@link noteRunsChangedSql} for runs known by id. */
export async function noteRunsChanged(db: Exec, runIds: number[]): Promise<void> {
  if (runIds.length) await db.execute(noteRunsChangedSql(sql`select unnest(${sql.param(runIds)}::int[]) as run_id`));
}

/** `n` fresh result ids in one statement, so commands can name their results on insert. */
export async function allocateResultIds(tx: Exec, n: number): Promise<number[]> {
  if (n === 0) return [];
  // The sequence is looked up once, not per row.
  const rows = await queryRows<{ r: string | number }>(
    tx as Db,
    sql`select nextval(s.r) as r
          from (select pg_get_serial_sequence('policy_device_results', 'id')::regclass as r) s,
               generate_series(1, ${n})`,
  );
  return rows.map((row) => Number(row.r));
}

export type NewResult = typeof policyDeviceResults.$inferInsert & { id: number };
/** Rows per JSON-recordset statement: one parameter however many rows, so chunks can be large. */
const JSON_CHUNK = 10_000;

const isoOrNull = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * Inserts results with their preallocated ids. The rows travel as one JSON parameter per
 * chunk: building a 14-column multi-row VALUES list costs more in the driver than the insert.
 */
export async function insertResults(db: Exec, rows: NewResult[]) {
  for (const chunk of chunks(rows, JSON_CHUNK)) {
    const json = chunk.map((r) => ({
      id: r.id,
      run_id: r.runId,
      policy_id: r.policyId,
      organization_id: r.organizationId,
      device_id: r.deviceId,
      status: r.status,
      command_id: r.commandId ?? null,
      command_type: r.commandType ?? null,
      args: r.args ?? {},
      selected_patches: r.selectedPatches ?? [],
      message: r.message ?? null,
      created_at: isoOrNull(r.createdAt),
      queued_at: isoOrNull(r.queuedAt),
      finished_at: isoOrNull(r.finishedAt),
    }));
    await db.execute(sql`
      insert into ${policyDeviceResults} (id, run_id, policy_id, organization_id, device_id, status, command_id,
             command_type, args, selected_patches, message, created_at, queued_at, finished_at)
      select id, run_id, policy_id, organization_id, device_id, status, command_id, command_type, args,
             selected_patches, message, created_at, queued_at, finished_at
        from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as v(id int, run_id int, policy_id int,
             organization_id int, device_id int, status text, command_id int, command_type text, args jsonb,
             selected_patches text[], message text, created_at timestamptz, queued_at timestamptz,
             finished_at timestamptz)`);
  }
}

/**
 * Devices among `deviceIds` with a command of the policy still open (pending or in progress)
 * from a run other than `runId`, each with that run's id.
 */
export async function findOpenCommandRuns(
  db: Exec,
  policyId: number,
  deviceIds: number[],
  runId: number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const chunk of chunks(deviceIds, 10_000)) {
    const rows = await db
      .select({ deviceId: policyDeviceResults.deviceId, runId: policyDeviceResults.runId })
      .from(policyDeviceResults)
      .where(
        and(
          eq(policyDeviceResults.policyId, policyId),
          inArray(policyDeviceResults.status, ['pending', 'in_progress']),
          sql`${policyDeviceResults.commandId} is not null`,
          sql`${policyDeviceResults.runId} <> ${runId}`,
          sql`${policyDeviceResults.deviceId} = any(${sql.param(chunk)}::int[])`,
        ),
      );
    for (const r of rows) out.set(r.deviceId, r.runId);
  }
  return out;
}

/**
 * Results of earlier runs still waiting for these devices to come back: a newer run replaces
 * them. Returns the runs whose results it canceled, for the caller to note
 * ({@link noteRunsChanged}) as the last statement of its transaction: a note stays locked from
 * its statement to the commit, and check-ins finishing those runs' other results wait for it.
 */
export async function cancelSuperseded(db: Exec, policyId: number, deviceIds: number[], now: Date): Promise<number[]> {
  const runs = new Set<number>();
  for (const chunk of chunks(deviceIds, 5000)) {
    const canceled = await db
      .update(policyDeviceResults)
      .set({ status: 'canceled', message: 'Superseded by a later run of the policy.', finishedAt: now })
      .where(
        and(
          eq(policyDeviceResults.policyId, policyId),
          sql`${policyDeviceResults.deviceId} = any(${sql.param(chunk)}::int[])`,
          eq(policyDeviceResults.status, 'pending'),
          isNull(policyDeviceResults.commandId),
        ),
      )
      .returning({ runId: policyDeviceResults.runId });
    for (const r of canceled) runs.add(r.runId);
  }
  return [...runs];
}

export type StandingUpdate = {
  deviceId: number;
  policyId: number;
  organizationId: number;
  status: Compliance;
  resultId: number | null;
  resultStatus: ResultStatus | null;
  runAt: Date | null;
  nextPatchTime: Date | null;
};

/**
 * Upserts devices' standing against policies. A result older than the one already recorded
 * (a late catch-up of an earlier run) does not overwrite the newer one.
 */
export async function upsertStandings(db: Exec, rows: StandingUpdate[], now: Date) {
  await writeStandings(db, rows, now);
  await refreshCompliance(
    db,
    rows.map((r) => r.deviceId),
    now,
  );
}

/**
 * {@link upsertStandings} without the compliance recompute, which the caller runs after its
 * transaction commits (a run's dispatch: at 100,000 devices the recompute is most of its time).
 */
export async function writeStandings(db: Exec, rows: StandingUpdate[], now: Date) {
  for (const chunk of chunks(rows, JSON_CHUNK)) {
    const json = chunk.map((r) => ({
      device_id: r.deviceId,
      policy_id: r.policyId,
      organization_id: r.organizationId,
      status: r.status,
      last_result_id: r.resultId,
      last_result_status: r.resultStatus,
      last_run_at: isoOrNull(r.runAt),
      next_patch_time: isoOrNull(r.nextPatchTime),
    }));
    await db.execute(sql`
      insert into ${devicePolicyStatus} as s (device_id, policy_id, organization_id, status, last_result_id,
             last_result_status, last_run_at, next_patch_time, updated_at)
      select device_id, policy_id, organization_id, status, last_result_id, last_result_status, last_run_at,
             next_patch_time, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as v(device_id int, policy_id int, organization_id int,
             status text, last_result_id int, last_result_status text, last_run_at timestamptz, next_patch_time timestamptz)
      ${STANDING_MERGE}`);
  }
}

/** Sets a device's standing from a worklet evaluation's exit code. */
export async function recordEvaluation(
  db: Exec,
  row: { deviceId: number; policyId: number; organizationId: number; exitCode: number | null; now: Date },
) {
  const status = evaluationStandingOf(row.exitCode);
  await db
    .insert(devicePolicyStatus)
    .values({
      deviceId: row.deviceId,
      policyId: row.policyId,
      organizationId: row.organizationId,
      status,
      evaluationExitCode: row.exitCode,
      updatedAt: row.now,
    })
    .onConflictDoUpdate({
      target: [devicePolicyStatus.deviceId, devicePolicyStatus.policyId],
      set: { status, evaluationExitCode: row.exitCode, updatedAt: row.now },
    });
  await refreshCompliance(db, [row.deviceId], row.now);
}

/** A command's final outcome, copied onto the result it carries out. */
export type CommandOutcome = {
  status: ResultStatus;
  exitCode: number | null;
  stdoutTail: string | null;
  stderrTail: string | null;
  finishedAt: Date | null;
  /** The agent only simulated the command (a dry run). */
  simulated?: boolean;
};

/**
 * Writes an outcome onto an open result, `said` (what the agent reported of notices and
 * restarts) added to its message; returns the result when it was open.
 */
export async function finishResult(
  db: Exec,
  resultId: number,
  outcome: CommandOutcome,
  said?: string | null,
): Promise<ResultRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(policyDeviceResults)
      .set(said ? { ...outcome, message: sql`concat_ws(' ', ${policyDeviceResults.message}, ${said}::text)` } : outcome)
      .where(and(eq(policyDeviceResults.id, resultId), inArray(policyDeviceResults.status, ['pending', 'in_progress'])))
      .returning();
    if (row) await noteRunsChanged(tx, [row.runId]);
    return row;
  });
}

/**
 * Copies the status of up to `limit` commands onto the open results they carry out: a
 * command handed out makes its result `in_progress`; a final one (including `timed_out`
 * by the sweep) finishes it. Returns the results that changed. This is also the safety
 * net for a result whose direct feedback was lost.
 */
export async function syncResultsFromCommands(db: Exec, limit: number): Promise<SyncedResult[]> {
  const rows = await queryRows<{
    id: number;
    runId: number;
    policyId: number;
    organizationId: number;
    deviceId: number;
    status: ResultStatus;
    createdAt: string | Date;
    simulated: boolean;
  }>(
    db as Db,
    sql`with changed as (
        update ${policyDeviceResults} r set
          status = c.status,
          simulated = coalesce(c.data->>'simulated' = 'true', false),
          exit_code = c.exit_code,
          stdout_tail = c.stdout_tail,
          stderr_tail = c.stderr_tail,
          finished_at = case when c.status in ('pending', 'in_progress') then null else coalesce(c.finished_at, c.created_at) end
        from ${deviceCommands} c
        where c.id = r.command_id
          and r.id in (select r2.id from ${policyDeviceResults} r2 join ${deviceCommands} c2 on c2.id = r2.command_id
                        where r2.status in ('pending', 'in_progress') and c2.status <> r2.status
                        limit ${limit} for update of r2 skip locked)
        returning r.id, r.run_id, r.policy_id, r.organization_id, r.device_id, r.status, r.created_at, r.simulated
        ), noted as (${noteRunsChangedSql(sql`select run_id from changed`)})
        select id, run_id as "runId", policy_id as "policyId", organization_id as "organizationId",
               device_id as "deviceId", status, created_at as "createdAt", simulated
          from changed`,
  );
  // Raw rows carry timestamps as the driver gives them (a string on node-postgres).
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

export type SyncedResult = Pick<
  ResultRow,
  'id' | 'runId' | 'policyId' | 'organizationId' | 'deviceId' | 'status' | 'createdAt' | 'simulated'
>;

/**
 * Recounts open runs from their results and moves them on (queued → running → completed |
 * error | timeout): one run, and with `onlyWhenDone` only once none of its results is open (a
 * result just finished); or, for the scheduler's tick, the open runs whose results changed
 * since the last tick (noted by their writers in the same transaction, {@link
 * noteRunsChangedSql}), or with `everyRun` all of them (the first tick after a start: runs
 * whose results changed under a version that noted nothing).
 */
export async function refreshOpenRuns(
  db: Exec,
  now: Date,
  runId?: number,
  options: { onlyWhenDone?: boolean; everyRun?: boolean } = {},
): Promise<RefreshedRun[]> {
  if (runId !== undefined && options.onlyWhenDone) {
    const open = await queryRows<{ one: number }>(
      db as Db,
      sql`select 1 as one from ${policyDeviceResults}
           where run_id = ${runId} and status in ('pending', 'in_progress') limit 1`,
    );
    if (open.length) return [];
  }
  // The notes read here are forgotten after the recount, unless a writer renewed them since.
  const notes =
    runId === undefined
      ? await queryRows<{ run_id: number; version: string | number }>(
          db as Db,
          sql`select run_id, version from ${policyRunChanges}`,
        )
      : [];
  if (runId === undefined && !options.everyRun && !notes.length) return [];
  const onlyRun =
    runId !== undefined
      ? sql` and id = ${runId}`
      : options.everyRun
        ? sql``
        : sql` and id = any(${sql.param(notes.map((n) => n.run_id))}::int[])`;
  const rows = await queryRows<{
    id: number;
    uuid: string;
    policy_id: number;
    organization_id: number;
    trigger: string;
    status: string;
    device_count: number;
    success_count: number;
    error_count: number;
    finished_at: string | Date | null;
  }>(
    db as Db,
    sql`with counts as (
          select r.run_id,
                 count(*) as total,
                 count(*) filter (where r.status = 'success') as ok,
                 count(*) filter (where r.status = 'error') as failed,
                 count(*) filter (where r.status = 'timed_out') as late,
                 count(*) filter (where r.status in ('pending', 'in_progress')) as open,
                 count(*) filter (where r.status <> 'pending' and r.command_type is not null) as started
            from ${policyDeviceResults} r
           where r.run_id in (select id from ${policyRuns} where status in ('queued', 'running')${onlyRun})
           group by r.run_id)
        update ${policyRuns} p set
          device_count = c.total, success_count = c.ok, error_count = c.failed + c.late, pending_count = c.open,
          status = case when c.open > 0 then (case when c.started > 0 then 'running' else 'queued' end)
                        when c.failed > 0 then 'error' when c.late > 0 then 'timeout' else 'completed' end,
          finished_at = case when c.open = 0 then ${now.toISOString()}::timestamptz else null end
        from counts c
        where c.run_id = p.id
        returning p.id, p.uuid, p.policy_id, p.organization_id, p.trigger, p.status, p.device_count,
                  p.success_count, p.error_count, p.finished_at`,
  );
  if (notes.length) {
    await db.execute(sql`
      delete from ${policyRunChanges} c
       using unnest(${sql.param(notes.map((n) => n.run_id))}::int[], ${sql.param(notes.map((n) => String(n.version)))}::bigint[])
             as n(run_id, version)
       where c.run_id = n.run_id and c.version = n.version`);
  }
  return rows.map((r) => ({
    id: Number(r.id),
    uuid: r.uuid,
    policyId: Number(r.policy_id),
    organizationId: Number(r.organization_id),
    trigger: r.trigger,
    status: r.status,
    deviceCount: Number(r.device_count),
    successCount: Number(r.success_count),
    errorCount: Number(r.error_count),
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
  }));
}

/** An open run as {@link refreshOpenRuns} left it; `finishedAt` set when it just finished. */
export type RefreshedRun = {
  id: number;
  uuid: string;
  policyId: number;
  organizationId: number;
  trigger: string;
  status: string;
  deviceCount: number;
  successCount: number;
  errorCount: number;
  finishedAt: Date | null;
};

/**
 * Locks up to `limit` results waiting for a device that has checked in since the run was
 * created (the device was offline or outside its maintenance window then), or since the
 * deferral the user chose ended, and that is inside a maintenance window now (or has none):
 * the caller queues their commands now.
 */
export async function lockCatchUps(tx: Tx, limit: number, now: Date): Promise<ResultRow[]> {
  return tx
    .select({ result: policyDeviceResults })
    .from(policyDeviceResults)
    .innerJoin(devices, eq(devices.id, policyDeviceResults.deviceId))
    .innerJoin(devicePresence, eq(devicePresence.deviceId, policyDeviceResults.deviceId))
    .where(
      and(
        eq(policyDeviceResults.status, 'pending'),
        isNull(policyDeviceResults.commandId),
        isNull(devices.removedAt),
        sql`${devicePresence.lastSeenAt} > ${policyDeviceResults.createdAt}`,
        // Only inside one of the device's maintenance windows (or any time without one).
        insideWindowSql(devices.groupId, now),
        // A run the user deferred waits for its time, then for a check-in after it.
        sql`(${policyDeviceResults.deferredUntil} is null or (${policyDeviceResults.deferredUntil} <= ${now.toISOString()}::timestamptz
              and ${devicePresence.lastSeenAt} >= ${policyDeviceResults.deferredUntil}))`,
      ),
    )
    .orderBy(asc(policyDeviceResults.id))
    .limit(limit)
    .for('update', { of: policyDeviceResults, skipLocked: true })
    .then((rows) => rows.map((r) => r.result));
}

export async function setResultCommands(tx: Exec, pairs: { resultId: number; commandId: number }[], now: Date) {
  for (const chunk of chunks(pairs)) {
    await tx.execute(sql`
      update ${policyDeviceResults} r set command_id = v.command_id, queued_at = ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(chunk.map((p) => ({ result_id: p.resultId, command_id: p.commandId })))}::jsonb)
             as v(result_id int, command_id int)
       where r.id = v.result_id`);
  }
}

/** The worklet policy whose evaluation the command carries out, if it does. */
export async function findEvaluationPolicyOf(db: Exec, commandId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ policyId: policyEvaluations.policyId })
    .from(policyEvaluations)
    .where(eq(policyEvaluations.commandId, commandId))
    .limit(1);
  return row?.policyId;
}

/** Links evaluation commands to their worklet policies. */
export async function insertEvaluationLinks(
  db: Exec,
  deviceId: number,
  links: { commandId: number; policyId: number }[],
  now: Date,
) {
  if (!links.length) return;
  await db
    .insert(policyEvaluations)
    .values(links.map((l) => ({ commandId: l.commandId, policyId: l.policyId, deviceId, createdAt: now })));
}

/**
 * Gives up on results still waiting for their device after `maxAgeMs` (it never came back)
 * or whose device was removed: they become `canceled`, so their runs can finish.
 */
export async function expireCatchUps(db: Exec, now: Date, maxAgeMs: number): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`with changed as (
          update ${policyDeviceResults} r set status = 'canceled', finished_at = ${now.toISOString()}::timestamptz,
                 message = case when d.removed_at is not null then 'The device was removed.'
                                else 'The device did not check in before the catch-up window ended.' end
            from ${devices} d
           where d.id = r.device_id and r.status = 'pending' and r.command_id is null
             and (d.removed_at is not null or r.created_at < ${new Date(now.getTime() - maxAgeMs).toISOString()}::timestamptz)
          returning r.id, r.run_id
        ), noted as (${noteRunsChangedSql(sql`select run_id from changed`)})
        select id from changed`,
  );
  return rows.length;
}

/** Policies with an evaluation of the device not answered yet (its command pending or in progress). */
export async function findOpenEvaluations(db: Exec, deviceId: number): Promise<Set<number>> {
  const rows = await db
    .select({ policyId: policyEvaluations.policyId })
    .from(policyEvaluations)
    .innerJoin(deviceCommands, eq(deviceCommands.id, policyEvaluations.commandId))
    .where(and(eq(policyEvaluations.deviceId, deviceId), inArray(deviceCommands.status, ['pending', 'in_progress'])));
  return new Set(rows.map((r) => r.policyId));
}
