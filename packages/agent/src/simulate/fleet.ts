/**
 * The fleet simulator: N virtual devices in one process. Each enrols with its own
 * machine_id, checks in on its (jittered) interval, sends its inventory when the hash
 * changes or the server asks, and answers commands after a realistic delay with a ~5 %
 * failure rate, and answers notices as people do (simulate/notices.ts). Requests go
 * through one limiter so sockets stay bounded; only a small pool of devices long-polls.
 */
import type { RebootReport } from '@patchwell/core/agent/agent-protocol.schema';
import { AgentApiError, createApiClient, NetworkError, type AgentApi } from '../api/client.js';
import { inventoryHash } from '../jobs/inventory.js';
import { deferredRunText } from '../notify/notifier.js';
import type { AgentCommand, CommandResult, DeviceStatus, Inventory } from '../protocol.js';
import { backoffDelay, jitteredInterval, retryDelay } from '../run/backoff.js';
import { AGENT_VERSION } from '../version.js';
import { generateMachine, type SimMachine } from './inventory.js';
import { noticeBefore, rebootAfter } from './notices.js';
import { createRng, type Rng } from './rng.js';

export type FleetOptions = {
  server: string;
  accessKey: string;
  count: number;
  seed?: number;
  /** Hostnames are numbered from here (default 0): fleets run side by side (zones) never share one. */
  hostNumberOffset?: number;
  /** Devices that hold a long-poll open (the rest only check in on their interval). */
  longPollDevices?: number;
  /** Maximum requests in flight for the whole fleet. */
  concurrency?: number;
  failureRate?: number;
  /** Multiplies command durations (0.01 for tests). */
  timeScale?: number;
  fetch?: typeof fetch;
  log?: (message: string) => void;
  /** Longest wait between tries of a result or an inventory the server could not store (default 60 s). */
  retryMaxMs?: number;
};

export type FleetStats = {
  devices: number;
  enrolled: number;
  removed: number;
  checkins: number;
  checkin_errors: number;
  /** Tries of results and inventories that failed (unreachable, 5xx, 429) and were retried. */
  retries: number;
  /** The most failed tries in a row of one result or inventory before it was stored. */
  longest_retry_streak: number;
  inventories: number;
  commands: number;
  results: number;
  failed_commands: number;
};

type SimDevice = {
  index: number;
  /** Software and patches are dropped once sent (and regenerated from the seed) until a command changes them. */
  machine: SimMachine;
  released: boolean;
  changed: boolean;
  api: AgentApi;
  rng: Rng;
  enrolled: boolean;
  removed: boolean;
  intervalS: number;
  hash: string;
  sentHash: string | null;
  bootAt: number;
  running: Set<string>;
  /** Worklet evaluations this device passes (by script); a remediation makes the next ones pass. */
  compliantScripts: Map<string, boolean>;
  failures: number;
  timer: NodeJS.Timeout | null;
  longPoll: boolean;
};

function createLimiter(max: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async function limit<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= max) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Realistic command durations, in seconds. */
const DURATION_S: Record<AgentCommand['type'], [number, number]> = {
  scan: [2, 8],
  install_all: [20, 90],
  install_updates: [10, 60],
  install_package: [5, 30],
  remove_package: [3, 15],
  run_script: [1, 10],
  reboot: [1, 3],
  // A simulated device has no screen or shell: it answers at once and never joins the tunnel.
  remote_session: [0, 1],
};

export function startFleet(options: FleetOptions) {
  const seed = options.seed ?? 1;
  const hostOffset = options.hostNumberOffset ?? 0;
  const log = options.log ?? (() => {});
  const limit = createLimiter(options.concurrency ?? 64);
  const failureRate = options.failureRate ?? 0.05;
  const timeScale = options.timeScale ?? 1;
  const controller = new AbortController();
  const pending = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  const stats: FleetStats = {
    devices: options.count,
    enrolled: 0,
    removed: 0,
    checkins: 0,
    checkin_errors: 0,
    retries: 0,
    longest_retry_streak: 0,
    inventories: 0,
    commands: 0,
    results: 0,
    failed_commands: 0,
  };
  let stopped = false;

  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => {});
    return p;
  };
  const later = (ms: number, fn: () => void) => {
    if (stopped) return null;
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
    return t;
  };

  // Machines are generated when their device first runs, so 100,000 devices start at once
  // and hold only their system facts in memory.
  const createdAt = Date.now();
  const devices: (SimDevice | undefined)[] = new Array<SimDevice | undefined>(options.count);
  const createDevice = (i: number): SimDevice => {
    const machine = generateMachine(seed, i, createdAt, hostOffset + i);
    return {
      index: i,
      machine,
      released: false,
      changed: false,
      api: createApiClient(options.server, options.fetch ? { fetch: options.fetch } : {}),
      rng: createRng(seed * 7919 + i),
      enrolled: false,
      removed: false,
      intervalS: 60,
      hash: inventoryHash(machine.system, machine.software, machine.patches),
      sentHash: null,
      bootAt: Date.now() - machine.system.uptime_s * 1000,
      running: new Set(),
      compliantScripts: new Map(),
      failures: 0,
      timer: null,
      longPoll: i < (options.longPollDevices ?? 4),
    };
  };

  /** The device's full inventory, regenerated if it was released. */
  const full = (d: SimDevice): SimMachine => {
    if (d.released) {
      const fresh = generateMachine(seed, d.index, createdAt, hostOffset + d.index);
      d.machine.software = fresh.software;
      d.machine.patches = fresh.patches;
      d.released = false;
    }
    return d.machine;
  };
  const release = (d: SimDevice) => {
    if (d.changed || d.released) return;
    d.machine.software = [];
    d.machine.patches = [];
    d.released = true;
  };

  const rehash = (d: SimDevice) => {
    d.hash = inventoryHash(d.machine.system, d.machine.software, d.machine.patches);
  };

  const status = (d: SimDevice): DeviceStatus => ({
    uptime_s: Math.round((Date.now() - d.bootAt) / 1000),
    logged_in_user: d.machine.system.logged_in_user,
    needs_reboot: d.machine.needsReboot,
    ip_addrs: [d.machine.ipPublic],
    ip_addrs_private: [d.machine.ipPrivate],
  });

  const inventory = (d: SimDevice): Inventory => {
    const m = full(d);
    return {
      hash: d.hash,
      system: { ...m.system, uptime_s: status(d).uptime_s },
      software: m.software,
      patches: m.patches,
    };
  };

  async function enroll(d: SimDevice): Promise<void> {
    const s = d.machine.system;
    const res = await limit(() =>
      d.api.enroll({
        access_key: options.accessKey,
        machine_id: d.machine.machineId,
        hostname: s.hostname,
        os_family: s.os_family,
        os_name: s.os_name,
        os_version: s.os_version,
        arch: s.arch,
        agent_version: AGENT_VERSION,
      }),
    );
    d.api.setToken(res.token);
    d.intervalS = res.checkin_interval_s;
    if (!d.enrolled) stats.enrolled++;
    d.enrolled = true;
    d.sentHash = null;
  }

  /** Waits `ms`, or rejects as soon as the fleet stops (ending a retry loop). */
  const pause = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      if (stopped) return reject(new Error('fleet stopped'));
      const onAbort = () => {
        clearTimeout(t);
        timers.delete(t);
        reject(new Error('fleet stopped'));
      };
      const t = setTimeout(() => {
        timers.delete(t);
        controller.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      timers.add(t);
      controller.signal.addEventListener('abort', onAbort, { once: true });
    });

  /**
   * Sends until the server stores it, as a real agent keeps a result it could not post: an
   * unreachable server and 5xx/429 answers (503 while its database restarts) are retried
   * with backoff, waiting at least the server's Retry-After; other errors are thrown.
   */
  async function untilStored(d: SimDevice, send: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await limit(send);
        return;
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        stats.retries++;
        stats.longest_retry_streak = Math.max(stats.longest_retry_streak, attempt + 1);
        await pause(retryDelay(attempt, err.retryAfterMs, d.rng.next, options.retryMaxMs ?? 60_000));
      }
    }
  }

  /** Posts a command's result until stored; a 404 (command gone) ends it too. */
  const storeResult = (d: SimDevice, id: number, result: CommandResult) =>
    untilStored(d, async () => {
      try {
        await d.api.postResult(id, result);
      } catch (err) {
        if (!(err instanceof AgentApiError && err.status === 404)) throw err;
      }
    });

  async function sendInventory(d: SimDevice) {
    const hash = d.hash;
    await untilStored(d, () => d.api.putInventory(inventory(d)));
    release(d);
    d.sentHash = hash;
    stats.inventories++;
  }

  /** Applies a successful command's effect to the simulated machine. */
  function apply(d: SimDevice, cmd: AgentCommand) {
    const m = full(d);
    d.changed = true;
    const upgrade = (names: Set<string> | null) => {
      const done = m.patches.filter((p) => !names || names.has(p.name) || (p.kb && names.has(p.kb)));
      if (done.some((p) => p.reboot_required)) m.needsReboot = true;
      for (const p of done) {
        const sw = m.software.find((s) => s.name === p.name);
        if (sw) sw.version = p.version;
      }
      m.patches = m.patches.filter((p) => !done.includes(p));
    };
    switch (cmd.type) {
      case 'install_all':
        upgrade(null);
        break;
      case 'install_updates':
        upgrade(new Set(cmd.args.names ?? []));
        break;
      case 'install_package':
        if (cmd.args.package && !m.software.some((s) => s.name === cmd.args.package)) {
          m.software = [
            ...m.software,
            { name: cmd.args.package, version: cmd.args.version ?? '1.0.0', source: 'simulated', arch: null },
          ];
        }
        break;
      case 'remove_package':
        m.software = m.software.filter((s) => s.name !== cmd.args.package);
        m.patches = m.patches.filter((p) => p.name !== cmd.args.package);
        break;
      case 'run_script':
        if (cmd.args.purpose === 'remediate')
          for (const key of d.compliantScripts.keys()) d.compliantScripts.set(key, true);
        break;
      case 'reboot':
        later(Math.max(1, cmd.args.delay_s ?? 60) * 1000 * timeScale, () => {
          d.bootAt = Date.now();
          m.needsReboot = false;
        });
        break;
      default:
        break;
    }
    rehash(d);
  }

  /**
   * A worklet evaluation: about a third of devices start out of compliance with a given script;
   * after the device runs a remediation, its evaluations pass (the fix "took").
   */
  function evaluate(d: SimDevice, cmd: AgentCommand, started: Date) {
    const script = cmd.args.script ?? '';
    let passes = d.compliantScripts.get(script);
    if (passes === undefined) {
      passes = !d.rng.chance(0.35);
      d.compliantScripts.set(script, passes);
    }
    const result: CommandResult = {
      status: passes ? 'success' : 'error',
      exit_code: passes ? 0 : 1,
      stdout_tail: passes ? 'Compliant\n' : 'Needs remediation\n',
      stderr_tail: '',
      started_at: started.toISOString(),
      finished_at: new Date().toISOString(),
      data: { simulated_device: true, purpose: 'evaluate' },
    };
    void track(
      storeResult(d, cmd.id, result)
        .then(() => void stats.results++)
        .catch((err: unknown) =>
          log(`${d.machine.system.hostname}: evaluation ${cmd.id} not posted: ${(err as Error).message}`),
        )
        .finally(() => d.running.delete(String(cmd.id))),
    );
  }

  function runCommand(d: SimDevice, cmd: AgentCommand) {
    const key = String(cmd.id);
    if (d.running.has(key)) return;
    d.running.add(key);
    stats.commands++;
    const started = new Date();
    const [lo, hi] = DURATION_S[cmd.type] ?? [1, 5];
    const durationMs = (lo + d.rng.next() * (hi - lo)) * 1000 * timeScale;
    later(durationMs, () => {
      if (cmd.type === 'run_script' && cmd.args.purpose === 'evaluate') return evaluate(d, cmd, started);
      const notice = noticeBefore(d.rng, d.machine, cmd);
      const deferred = notice?.choice === 'defer';
      const fails = !deferred && d.rng.chance(failureRate);
      let stdout = '';
      let stderr = '';
      let reboot: RebootReport | undefined;
      if (deferred) {
        stdout = deferredRunText(notice.defer_h);
      } else if (fails) {
        stderr =
          cmd.type === 'install_all' || cmd.type === 'install_updates'
            ? 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242\n'
            : `${cmd.type} failed: simulated error\n`;
      } else {
        apply(d, cmd);
        reboot = rebootAfter(d.rng, d.machine, cmd);
        if (reboot?.outcome === 'rebooting' || reboot?.outcome === 'scheduled') {
          apply(d, { ...cmd, type: 'reboot', args: { delay_s: reboot.delay_s ?? 60 } });
        }
        stdout =
          cmd.type === 'scan'
            ? `Inventory: ${full(d).software.length} packages, ${full(d).patches.length} pending updates\n`
            : `${cmd.type} completed on ${d.machine.system.hostname}\n`;
      }
      const result: CommandResult = {
        status: deferred ? 'canceled' : fails ? 'error' : 'success',
        exit_code: deferred ? null : fails ? 1 : 0,
        stdout_tail: stdout,
        stderr_tail: stderr,
        started_at: started.toISOString(),
        finished_at: new Date().toISOString(),
        data: { simulated_device: true },
        ...(notice ? { notice } : {}),
        ...(reboot ? { reboot } : {}),
      };
      if (fails) stats.failed_commands++;
      void track(
        (async () => {
          try {
            if (cmd.type === 'scan' && !fails) await sendInventory(d);
            await storeResult(d, cmd.id, result);
            stats.results++;
            // A change shows in the console at once, not at the next check-in.
            if (d.hash !== d.sentHash) await sendInventory(d);
          } catch (err) {
            log(`${d.machine.system.hostname}: result of ${cmd.id} not posted: ${(err as Error).message}`);
          } finally {
            d.running.delete(key);
          }
        })(),
      );
    });
  }

  async function checkin(d: SimDevice, waitS: number): Promise<void> {
    const res = await (waitS > 0
      ? d.api.checkin({ status: status(d), inventory_hash: d.hash, wait_s: waitS }, controller.signal)
      : limit(() => d.api.checkin({ status: status(d), inventory_hash: d.hash, wait_s: 0 }, controller.signal)));
    stats.checkins++;
    d.intervalS = res.checkin_interval_s;
    if (res.send_inventory || d.hash !== d.sentHash) await sendInventory(d);
    for (const cmd of res.commands) runCommand(d, cmd);
  }

  /** One round of a device: enrol if needed, check in, handle errors, schedule the next round. */
  async function round(d: SimDevice): Promise<void> {
    if (stopped || d.removed) return;
    let delay: number;
    try {
      if (!d.enrolled) await enroll(d);
      // Long-poll only once the server has this device's inventory.
      await checkin(d, d.longPoll && d.sentHash === d.hash ? 25 : 0);
      d.failures = 0;
      delay = d.longPoll ? 0 : jitteredInterval(d.intervalS, d.rng.next);
    } catch (err) {
      if (stopped) return;
      stats.checkin_errors++;
      if (err instanceof AgentApiError && err.status === 410) {
        d.removed = true;
        stats.removed++;
        log(`${d.machine.system.hostname}: removed by the server`);
        return;
      }
      if (err instanceof AgentApiError && err.status === 401 && d.enrolled) {
        d.enrolled = false; // re-enrol on the next round
      }
      delay = backoffDelay(d.failures++, d.rng.next);
      if (d.failures === 1) log(`${d.machine.system.hostname}: ${(err as Error).message}`);
    }
    later(delay, () => void track(round(d)));
  }

  // Spread the first check-ins over a few seconds so N devices do not arrive at once.
  const spreadMs = Math.min(30_000, options.count * 20);
  const spread = createRng(seed);
  for (let i = 0; i < options.count; i++) {
    const longPoll = i < (options.longPollDevices ?? 4);
    later(longPoll ? 0 : spread.next() * spreadMs, () => void track(round((devices[i] ??= createDevice(i)))));
  }
  log(`simulating ${options.count} devices against ${options.server} (seed ${seed})`);

  return {
    /** The machine of device `index` (generated from the seed; cheap enough for tests and tools). */
    machine: (index: number): SimMachine => generateMachine(seed, index, createdAt, hostOffset + index),
    stats: (): FleetStats => ({ ...stats }),
    async stop(): Promise<void> {
      stopped = true;
      controller.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...pending]);
    },
  };
}
