/**
 * The service: check in (long-polling for commands), send the inventory when its hash
 * changes or the server asks, execute commands, post results; back off when the server is
 * unreachable, re-enrol on 401, stop on 410.
 */
import { AgentApiError, NetworkError, type AgentApi } from '../api/client.js';
import { executeCommand, postResult } from '../jobs/executor.js';
import { collectInventory } from '../jobs/inventory.js';
import { rebootWhenDue } from '../jobs/notices.js';
import { runProcess, type ProcessRunner } from '../jobs/process.js';
import type { Platform } from '../platform/platform.js';
import type { AgentCommand, CommandResult, Inventory } from '../protocol.js';
import { writeState, type AgentState } from '../state/state.js';
import { backoffDelay, jitteredInterval, retryDelay } from './backoff.js';
import { enrollDevice } from './enroll.js';

export type RunOutcome = 'once' | 'stopped' | 'removed' | 'unauthorized' | 'unreachable';

export type RunOptions = {
  platform: Platform;
  api: AgentApi;
  state: AgentState;
  /** Where the state is saved after re-enrolment and interval changes; null keeps it in memory. */
  statePath: string | null;
  allowChanges: boolean;
  once?: boolean;
  /** Long-poll seconds per check-in (0 turns long-polling off). */
  waitS?: number;
  /** How often the inventory is re-collected without a command asking. */
  inventoryRefreshMs?: number;
  signal?: AbortSignal;
  log?: (message: string) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  run?: ProcessRunner;
  /** Between heartbeats while commands run; default the jittered check-in interval. */
  heartbeatMs?: number;
};

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function runAgent(options: RunOptions): Promise<RunOutcome> {
  const { platform, api, allowChanges } = options;
  const log = options.log ?? ((m: string) => console.error(`[${new Date().toISOString()}] ${m}`));
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const waitS = options.once ? 0 : Math.min(30, Math.max(0, options.waitS ?? 25));
  const refreshMs = options.inventoryRefreshMs ?? 60 * 60_000;
  const signal = options.signal;
  let state = options.state;
  api.setToken(state.token);

  const save = async () => {
    if (options.statePath) await writeState(options.statePath, state);
  };

  let inventory: Inventory | null = null;
  let inventoryAt = 0;
  let sentHash = state.inventory_hash ?? null;
  const unsent: { id: number; result: CommandResult }[] = [];
  let attempt = 0;

  // A restart the user deferred is asked again once due: deferred further (while the policy
  // allows) or done. Kept in the state file, so a restart of the agent does not forget it.
  const restartWhenDue = async () => {
    const pending = state.pending_reboot;
    if (!pending || Date.parse(pending.due_at) > Date.now()) return;
    // The restart notice may wait for the user as long as the policy allows.
    const { next, report } = await whileBusy(() =>
      rebootWhenDue(pending, { platform, allowChanges, run: options.run ?? runProcess }),
    );
    state = { ...state, pending_reboot: next };
    await save();
    log(
      next
        ? `restart deferred again until ${next.due_at}`
        : `deferred restart: ${report.outcome}${report.simulated ? ' (simulation: no --allow-changes)' : ''}`,
    );
  };

  // While commands run (an install, a script, a notice waiting for the user), a busy check-in
  // every interval keeps the device online in the console; it takes no new commands.
  const startHeartbeat = (): (() => void) => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (stopped) return;
      timer = setTimeout(beat, options.heartbeatMs ?? jitteredInterval(state.checkin_interval_s, random));
      timer.unref();
    };
    const beat = async () => {
      try {
        await api.checkin({ status: await platform.status(), inventory_hash: sentHash, wait_s: 0, busy: true }, signal);
      } catch {
        // The check-in after the commands reports the server's state (unreachable, removed).
      }
      next();
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  };

  /** Runs `work` with the heartbeat going (not for `--once`, which has no interval to keep). */
  const whileBusy = async <T>(work: () => Promise<T>): Promise<T> => {
    const stop = options.once ? () => undefined : startHeartbeat();
    try {
      return await work();
    } finally {
      stop();
    }
  };

  /** Runs the commands of a check-in in order and posts each result (kept when unsent). */
  const runCommands = async (commands: AgentCommand[]) => {
    for (const cmd of commands) {
      log(`command ${cmd.id}: ${cmd.type}${allowChanges ? '' : ' (simulation: no --allow-changes)'}`);
      const result = await executeCommand(cmd, {
        platform,
        api,
        allowChanges,
        ...(options.run ? { run: options.run } : {}),
        knownPatches: inventory?.patches ?? [],
        log,
        ...(signal ? { signal } : {}),
        deferReboot: async (pending) => {
          state = { ...state, pending_reboot: pending };
          await save();
          log(`restart deferred by the user until ${pending.due_at}`);
        },
        onInventory: (inv, sent) => {
          inventory = inv;
          inventoryAt = Date.now();
          if (sent) sentHash = inv.hash;
        },
      });
      log(`command ${cmd.id}: ${result.status}${result.exit_code === null ? '' : ` (exit ${result.exit_code})`}`);
      try {
        if (!(await postResult(api, cmd.id, result, { random }))) unsent.push({ id: cmd.id, result });
      } catch (err) {
        // Kept for after the re-enrolment that a 401 triggers.
        unsent.push({ id: cmd.id, result });
        throw err;
      }
    }
  };

  const sendInventory = async (inv: Inventory) => {
    await api.putInventory(inv);
    sentHash = inv.hash;
    state = { ...state, inventory_hash: inv.hash };
    await save();
    log(`inventory sent: ${inv.software.length} packages, ${inv.patches.length} pending updates`);
  };

  while (!signal?.aborted) {
    try {
      if (!inventory || Date.now() - inventoryAt > refreshMs) {
        inventory = await collectInventory(platform);
        inventoryAt = Date.now();
      }
      while (unsent.length > 0) {
        const next = unsent[0]!;
        if (!(await postResult(api, next.id, next.result, { attempts: 1 }))) throw new NetworkError('results pending');
        unsent.shift();
      }

      const started = Date.now();
      // An inventory not yet sent: ask at once instead of holding a long-poll first.
      const wait = inventory.hash === sentHash ? waitS : 0;
      const res = await api.checkin(
        { status: await platform.status(), inventory_hash: inventory.hash, wait_s: wait },
        signal,
      );
      attempt = 0;
      if (res.checkin_interval_s !== state.checkin_interval_s || !state.last_checkin_at) {
        state = { ...state, checkin_interval_s: res.checkin_interval_s };
      }
      state = { ...state, last_checkin_at: new Date().toISOString() };
      if (options.once || res.commands.length > 0) await save();

      if (res.send_inventory || inventory.hash !== sentHash) await sendInventory(inventory);

      if (res.commands.length > 0) await whileBusy(() => runCommands(res.commands));
      if (inventory.hash !== sentHash) await sendInventory(inventory);
      await restartWhenDue();

      if (options.once) {
        if (unsent.length > 0) return 'unreachable';
        return 'once';
      }
      if (res.commands.length > 0) continue;
      const elapsed = Date.now() - started;
      // A long-poll that ran its course: poll again at once so a new command arrives within a second.
      if (wait > 0 && elapsed >= wait * 800) continue;
      if (waitS > 0 && wait === 0) continue;
      await sleep(jitteredInterval(state.checkin_interval_s, random) - elapsed, signal);
    } catch (caught) {
      let err = caught;
      if (signal?.aborted) break;
      if (err instanceof AgentApiError && err.status === 410) {
        log('the server removed this device; stopping');
        return 'removed';
      }
      if (err instanceof AgentApiError && err.status === 401) {
        log(`token rejected (${err.code ?? err.status}); re-enrolling with the stored access key`);
        try {
          state = { ...(await enrollDevice(platform, api, state.access_key)), inventory_hash: null };
          sentHash = null;
          await save();
          log(`re-enrolled as device ${state.device_id}`);
          if (attempt > 0) await sleep(backoffDelay(attempt, random), signal);
          attempt++;
          continue;
        } catch (enrollErr) {
          if (enrollErr instanceof AgentApiError && enrollErr.status === 401) {
            log(`re-enrolment refused (${enrollErr.code ?? 401}): the access key is no longer valid`);
            return 'unauthorized';
          }
          err = enrollErr;
        }
      }
      if (options.once) {
        log(`check-in failed: ${(err as Error).message}`);
        return 'unreachable';
      }
      // A server that said when to come back (503 while its database restarts) is honoured.
      const delay = retryDelay(attempt++, err instanceof NetworkError ? err.retryAfterMs : null, random);
      log(`check-in failed (${(err as Error).message}); retrying in ${Math.round(delay / 1000)} s`);
      await sleep(delay, signal);
    }
  }
  return 'stopped';
}
