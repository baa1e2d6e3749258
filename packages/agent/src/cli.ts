/**
 * The endpoint agent's command line: enroll, run, status, simulate, version, help.
 * Exit codes: 0 done, 1 failure, 2 usage, 3 the server removed this device.
 */
import { PRODUCT_NAME } from '@patchwell/core/constants';
import { AgentApiError, createApiClient } from './api/client.js';
import { currentPlatform } from './platform/detect.js';
import { runAgent } from './run/agent-loop.js';
import { enrollDevice } from './run/enroll.js';
import { startFleet } from './simulate/fleet.js';
import { defaultStatePath, readState, writeState } from './state/state.js';
import { AGENT_VERSION } from './version.js';

export { AGENT_VERSION };

const USAGE = `${PRODUCT_NAME} agent ${AGENT_VERSION}

Usage: patchwell-agent <command> [options]

Commands:
  enroll --server URL --key ZONE_ACCESS_KEY [--state FILE]
              register this device with a zone and store its identity (mode 0600)
  run [--once] [--allow-changes] [--wait S] [--state FILE]
              check in, send the inventory, execute queued commands; --once exits after
              one round. Without --allow-changes, installs and removals run the package
              manager's simulation, scripts are refused and reboots are only reported.
  status [--state FILE]
              print the stored identity and this machine's facts
  simulate --count N --server URL --key KEY [--seed S] [--duration S] [--long-poll K]
              run N virtual Windows, macOS and Linux devices in this process
  version     print the agent version
  help        show this text

Default state file: ~/.patchwell-agent/state.json (/var/lib/patchwell-agent/state.json as root).`;

type Flags = { positional: string[]; values: Map<string, string>; switches: Set<string> };

const SWITCHES = new Set(['once', 'allow-changes', 'json', 'help']);

export function parseArgs(argv: string[]): Flags {
  const flags: Flags = { positional: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      flags.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (eq !== -1) flags.values.set(name, arg.slice(eq + 1));
    else if (SWITCHES.has(name)) flags.switches.add(name);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      flags.values.set(name, value);
      i++;
    }
  }
  return flags;
}

class UsageError extends Error {}

function required(flags: Flags, name: string): string {
  const value = flags.values.get(name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function intFlag(flags: Flags, name: string, fallback: number): number {
  const raw = flags.values.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} must be a non-negative number`);
  return n;
}

function serverUrl(flags: Flags): string {
  const raw = required(flags, 'server');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server must be a URL such as https://patchwell.example.com (got ${JSON.stringify(raw)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--server must be an http(s) URL');
  return raw.replace(/\/+$/, '');
}

async function enroll(flags: Flags): Promise<number> {
  const server = serverUrl(flags);
  const key = required(flags, 'key');
  const statePath = flags.values.get('state') ?? defaultStatePath();
  const platform = currentPlatform();
  const api = createApiClient(server);
  try {
    const state = await enrollDevice(platform, api, key);
    await writeState(statePath, state);
    console.log(`Enrolled as device ${state.device_id} (${state.device_uuid}); state saved to ${statePath}`);
    return 0;
  } catch (err) {
    if (err instanceof AgentApiError && err.code === 'agent.invalid_access_key') {
      console.error('The server refused the access key (agent.invalid_access_key).');
    } else console.error(`Enrolment failed: ${(err as Error).message}`);
    return 1;
  }
}

async function run(flags: Flags): Promise<number> {
  const statePath = flags.values.get('state') ?? defaultStatePath();
  const state = await readState(statePath);
  if (!state) {
    console.error(`No state at ${statePath}: run "patchwell-agent enroll --server URL --key KEY" first.`);
    return 1;
  }
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const outcome = await runAgent({
      platform: currentPlatform(),
      api: createApiClient(state.server, { token: state.token }),
      state,
      statePath,
      allowChanges: flags.switches.has('allow-changes'),
      once: flags.switches.has('once'),
      waitS: intFlag(flags, 'wait', 25),
      signal: controller.signal,
    });
    if (outcome === 'removed') return 3;
    return outcome === 'once' || outcome === 'stopped' ? 0 : 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function status(flags: Flags): Promise<number> {
  const statePath = flags.values.get('state') ?? defaultStatePath();
  const state = await readState(statePath);
  const platform = currentPlatform();
  const [machineId, system] = await Promise.all([platform.machineId(), platform.system()]);
  const report = {
    agent_version: AGENT_VERSION,
    state_file: statePath,
    enrolled: Boolean(state),
    server: state?.server ?? null,
    device_id: state?.device_id ?? null,
    device_uuid: state?.device_uuid ?? null,
    checkin_interval_s: state?.checkin_interval_s ?? null,
    enrolled_at: state?.enrolled_at ?? null,
    last_checkin_at: state?.last_checkin_at ?? null,
    inventory_hash: state?.inventory_hash ?? null,
    machine_id: machineId,
    hostname: system.hostname,
    os: `${system.os_name} (${system.arch})`,
  };
  if (flags.switches.has('json')) console.log(JSON.stringify(report, null, 2));
  else for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(20)} ${v ?? '-'}`);
  return 0;
}

async function simulate(flags: Flags): Promise<number> {
  const fleet = startFleet({
    server: serverUrl(flags),
    accessKey: required(flags, 'key'),
    count: intFlag(flags, 'count', 10),
    seed: intFlag(flags, 'seed', 1),
    longPollDevices: intFlag(flags, 'long-poll', 4),
    concurrency: intFlag(flags, 'concurrency', 64),
    log: (m) => console.error(`[${new Date().toISOString()}] ${m}`),
  });
  const durationS = intFlag(flags, 'duration', 0);
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (durationS > 0) setTimeout(done, durationS * 1000).unref();
  });
  await fleet.stop();
  console.log(JSON.stringify(fleet.stats()));
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseArgs(argv);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command = 'help'] = flags.switches.has('help') ? ['help'] : flags.positional;
  try {
    switch (command) {
      case 'version':
      case '--version':
        console.log(AGENT_VERSION);
        return 0;
      case 'help':
        console.log(USAGE);
        return 0;
      case 'enroll':
        return await enroll(flags);
      case 'run':
        return await run(flags);
      case 'status':
        return await status(flags);
      case 'simulate':
        return await simulate(flags);
      default:
        console.error(`Unknown command: ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    throw err;
  }
}
