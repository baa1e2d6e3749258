import type { AgentRuntime } from '../agent-api/agent-runtime';
import type { AppContext } from '../context';
import { dispatchRun } from './dispatch';
import { findNextDue, insertScheduledRun, lockCreatedRun, lockDueSlots, setSlotNextRun } from './engine.store';
import { refreshCompliance, rewordAgedReasons } from '../modules/devices/compliance.store';
import type { CommandFinished } from '../modules/commands/commands.events';
import { applyCommandResult, closeOpenRuns, queueCatchUps, syncResults } from './results';
import { addNewLocalSlots, nextRunOf } from './slots';
import { advanceWindows } from '../modules/maintenance-windows/maintenance-windows.service';
import { queueWaitingJobs } from '../modules/remediation/tasks/task-dispatch.service';
import { POLICY_TYPE_FEATURE } from '@patchwell/core/rules/entitlements';
import { zoneHasFeature } from '../modules/zones/entitlements.service';

/**
 * The policy scheduler. Every node runs it; coordination is in PostgreSQL, never in memory:
 * - a due slot is locked (`FOR UPDATE SKIP LOCKED`), its run inserted and its next time
 *   written in ONE transaction, so a due instant becomes exactly one run however many
 *   nodes tick at once (a unique index on policy, slot and instant is the second guard);
 * - a `created` run is dispatched (devices resolved, results and commands inserted) in one
 *   transaction holding its row lock, so a node dying mid-dispatch leaves it `created` for
 *   the next node, and two nodes never dispatch the same run.
 */

/** How often each node ticks (POLICY_SCHEDULER_INTERVAL_MS; 0 turns the timer off). */
export const SCHEDULER_INTERVAL_MS = 15_000; // the default of config.policySchedulerIntervalMs
/** A slot found due later than this ran late (the servers were down): its run is a catch-up. */
export const LATE_AFTER_MS = 5 * 60_000;
const SLOT_BATCH = 50;
/** The due timer fires this long after the due instant, so the slot reads as due on the database's clock too. */
const DUE_SLACK_MS = 20;

export type TickReport = {
  runsCreated: number;
  runsDispatched: number;
  catchUps: number;
  /** Remediation jobs queued as their device's maintenance window opened. */
  jobsQueued: number;
  resultsSynced: number;
  /** Devices whose compliance reason was reworded as its patches aged into the next bucket. */
  reasonsReworded: number;
};

export type PolicyEngine = {
  /** One pass: new local slots, due slots → runs, dispatch, catch-ups, results and run counts, aged reasons. */
  tick(): Promise<TickReport>;
  /** Dispatches one run now (a "run now" from the console) and wakes its devices. */
  dispatch(runId: number): Promise<void>;
  /** The engine's `commandFinished` subscriber: applies a command's result to its policy result at once. */
  commandFinished(event: CommandFinished): Promise<void>;
  start(): void;
  stop(): Promise<void>;
};

type Ctx = Pick<AppContext, 'db' | 'clock' | 'logger'>;

/** Turns due slots into runs; returns how many runs it created. Safe on any number of nodes at once. */
export async function claimDueSlots(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  let created = 0;
  for (;;) {
    const now = ctx.clock.now();
    const { locked, made } = await ctx.db.transaction(async (tx) => {
      const due = await lockDueSlots(tx, now, SLOT_BATCH);
      let made = 0;
      for (const { slot, policy, zone } of due) {
        const scheduledFor = slot.nextRunAt!;
        // A worklet or required-software policy of a zone that left the plan keeps its
        // schedule but makes no run until the zone upgrades again (the run-now route says why).
        const run = !zoneHasFeature(ctx, zone, POLICY_TYPE_FEATURE[policy.type])
          ? null
          : await insertScheduledRun(tx, {
              policyId: policy.id,
              organizationId: policy.organizationId,
              trigger: now.getTime() - scheduledFor.getTime() > LATE_AFTER_MS ? 'catch_up' : 'schedule',
              tzKey: slot.tzKey,
              scheduledFor,
              now,
            });
        if (run) made++;
        // From now, not from the missed instant: a node down for a week owes one run, not seven.
        await setSlotNextRun(tx, slot.id, nextRunOf(policy, slot.tzKey, now));
      }
      return { locked: due.length, made };
    });
    created += made;
    if (locked < SLOT_BATCH) return created;
  }
}

/**
 * Dispatches `created` runs one by one (or only the given one), waking each run's devices
 * after its commit; returns how many it dispatched.
 *
 * A run's compliance recompute (every targeted device's state, reason and row) runs after
 * the commit, in chunks of its own, for set-based and per-device runs alike: inside, it was
 * 13 of a 100,000-device run's 21 s (each device row rewritten with its 14 index entries)
 * while the run's commands waited unseen, and on PGlite every other query waited too.
 * Compliance is derived from the standings just committed; a node that stops between the
 * commit and the recompute leaves those devices' previous compliance until their next
 * standing or result, which the run itself brings.
 */
export async function dispatchCreatedRuns(
  ctx: Ctx & { agents: Pick<AgentRuntime, 'wake'> },
  runId?: number,
): Promise<number> {
  let dispatched = 0;
  for (;;) {
    const done = await ctx.db.transaction(async (tx) => {
      const row = await lockCreatedRun(tx, runId);
      if (!row) return null;
      return dispatchRun(tx, ctx, row.run, row.policy);
    });
    if (!done) return dispatched;
    dispatched++;
    if (done.wake.length) await ctx.agents.wake(done.wake);
    if (done.recompute.length) await refreshCompliance(ctx.db, done.recompute, ctx.clock.now());
    if (runId !== undefined) return dispatched;
  }
}

export function createPolicyEngine(
  ctx: Ctx,
  agents: Pick<AgentRuntime, 'wake'>,
  intervalMs: number = SCHEDULER_INTERVAL_MS,
): PolicyEngine {
  const ectx = { ...ctx, agents };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  // The first tick recounts every open run, later ones the runs whose results changed (results.store.ts refreshOpenRuns).
  let everyRunCounted = false;

  const tick = async (): Promise<TickReport> => {
    // First: the catch-ups below read each window's stored occurrence.
    await advanceWindows(ctx);
    await addNewLocalSlots(ctx.db, ctx.clock.now());
    const runsCreated = await claimDueSlots(ctx);
    const runsDispatched = await dispatchCreatedRuns(ectx);
    const catchUps = await queueCatchUps(ectx);
    // Remediation tasks' jobs that waited for their device's maintenance window.
    const jobsQueued = await queueWaitingJobs(ectx);
    const resultsSynced = await syncResults(ctx);
    await closeOpenRuns(ctx.db, ctx.clock.now(), undefined, { everyRun: !everyRunCounted });
    everyRunCounted = true;
    const reasonsReworded = await rewordAgedReasons(ctx.db, ctx.clock.now());
    return { runsCreated, runsDispatched, catchUps, jobsQueued, resultsSynced, reasonsReworded };
  };

  // Besides the interval, each tick arms a timer for the next due slot when it falls before
  // the next tick, so a run starts at its time, not up to an interval late.
  let dueTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const armNextDue = async () => {
    const due = await findNextDue(ctx.db);
    if (stopped || !due) return;
    const wait = due.getTime() - ctx.clock.now().getTime();
    if (wait >= intervalMs) return;
    clearTimeout(dueTimer);
    dueTimer = setTimeout(runTick, Math.max(0, wait) + DUE_SLACK_MS);
    dueTimer.unref();
  };
  const runTick = () => {
    if (running || stopped) return;
    running = tick()
      .then(async (r) => {
        if (r.runsCreated || r.runsDispatched || r.catchUps || r.jobsQueued)
          ctx.logger.debug(r, 'policy scheduler tick');
        await armNextDue();
      })
      .catch((err: unknown) => ctx.logger.warn({ err }, 'policy scheduler tick failed'))
      .finally(() => {
        running = undefined;
      });
  };

  return {
    tick,
    async dispatch(runId) {
      await dispatchCreatedRuns(ectx, runId);
      await closeOpenRuns(ctx.db, ctx.clock.now());
    },
    commandFinished: (event) => applyCommandResult(ectx, event),
    start() {
      if (timer || intervalMs <= 0) return;
      stopped = false;
      timer = setInterval(runTick, intervalMs);
      timer.unref();
      // A slot due before the first tick (after a restart) starts on time too.
      armNextDue().catch((err: unknown) =>
        ctx.logger.warn({ err }, 'policy scheduler: reading the next due slot failed'),
      );
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(dueTimer);
      timer = undefined;
      await running;
    },
  };
}
