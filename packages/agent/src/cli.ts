/**
 * The endpoint agent's command line: enroll, run, status, install-service, uninstall-service,
 * simulate, version, help.
 * Exit codes: 0 done, 1 failure, 2 usage, 3 the server removed this device.
 */
import { isSea } from 'node:sea';
import { PRODUCT_NAME } from '@patchwell/core/constants';
import { AgentApiError, createApiClient } from './api/client.js';
import { runProcess } from './jobs/process.js';
import { currentPlatform } from './platform/detect.js';
import { runAgent } from './run/agent-loop.js';
import { enrollDevice } from './run/enroll.js';
import { applyPlan, currentLauncher, launcherProblems, serviceOs } from './service/apply.js';
import {
  describePlan,
  installPlan,
  uninstallPlan,
  UNIX_STATE_PATH,
  WINDOWS_STATE_PATH,
  windowsInstallScript,
  windowsUninstallScript,
  type ServiceOs,
} from './service/service.js';
import { startFleet } from './simulate/fleet.js';
import { defaultStatePath, readState, writeState } from './state/state.js';
import { AGENT_VERSION } from './version.js';

export { AGENT_VERSION };

const USAGE = `${PRODUCT_NAME} agent ${AGENT_VERSION}

Usage: patchwell-agent <command> [options]

Commands:
  enroll --server URL --key ZONE_ACCESS_KEY [--state FILE] [--machine-id ID]
              register this device with a zone and store its identity (mode 0600);
              --machine-id replaces this machine's id (a second agent on one machine)
  run [--once] [--allow-changes] [--wait S] [--state FILE]
              check in, send the inventory, execute queued commands; --once exits after
              one round. Without --allow-changes, installs and removals run the package
              manager's simulation, scripts are refused and reboots are only reported.
  status [--json] [--state FILE]
              print the stored identity and this machine's facts
  install-service [--yes] [--allow-changes] [--state FILE]
              run the agent at boot: a systemd unit, a launchd daemon, or a Windows task
              as SYSTEM. Without --yes it prints what it would do; with it (as root or
              Administrator) it does it. --allow-changes is passed on to run.
  uninstall-service [--yes]
              stop and remove that service (the state file stays)
  simulate --count N --server URL --key KEY [--seed S] [--duration S] [--long-poll K]
              run N virtual Windows, macOS and Linux devices in this process
  version [--json]
              print the agent version (--json: also the runtime and isSea)
  help        show this text

Default state file: ~/.patchwell-agent/state.json (/var/lib/patchwell-agent/state.json as root).`;

type Flags = { positional: string[]; values: Map<string, string>; switches: Set<string> };

const SWITCHES = new Set(['once', 'allow-changes', 'json', 'help', 'yes']);

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
  const machineId = flags.values.get('machine-id');
  if (machineId !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(machineId)) {
    throw new UsageError('--machine-id must be 1 to 128 letters, digits, dots, dashes or underscores');
  }
  const api = createApiClient(server);
  try {
    const state = await enrollDevice(platform, api, key, undefined, machineId);
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

function serviceStatePath(flags: Flags, os: ServiceOs): string {
  return flags.values.get('state') ?? (os === 'windows' ? WINDOWS_STATE_PATH : UNIX_STATE_PATH);
}

function isAdmin(os: ServiceOs): boolean {
  // Windows has no uid; PowerShell's own errors say when the task cannot be registered.
  return os === 'windows' || process.getuid?.() === 0;
}

/** install-service / uninstall-service: prints the plan, and carries it out only with --yes. */
async function service(flags: Flags, action: 'install' | 'uninstall'): Promise<number> {
  const os = serviceOs();
  if (!os) {
    console.error(`No service support for ${process.platform}.`);
    return 1;
  }
  const spec = {
    launcher: currentLauncher(),
    statePath: serviceStatePath(flags, os),
    allowChanges: flags.switches.has('allow-changes'),
  };
  const plan = action === 'install' ? installPlan(os, spec) : uninstallPlan(os);
  const text = describePlan(plan, {
    windows: action === 'install' ? windowsInstallScript(spec) : windowsUninstallScript(),
  });
  if (!flags.switches.has('yes')) {
    console.log(
      `${text}\n\nNothing was changed: add --yes to do this (as ${os === 'windows' ? 'Administrator' : 'root'}).`,
    );
    return 0;
  }
  if (!isAdmin(os)) {
    console.error(`${action}-service --yes needs root (sudo).`);
    return 1;
  }
  if (action === 'install') {
    if (!(await readState(spec.statePath))) {
      console.error(
        `No state at ${spec.statePath}: enrol first (patchwell-agent enroll --server URL --key KEY --state ${spec.statePath}).`,
      );
      return 1;
    }
    // Node itself is left out: where it lives is the administrator's choice (Homebrew's
    // belongs to the admin user); the agent's file is what the instructions put in place.
    const agentFiles = isSea() ? spec.launcher : spec.launcher.slice(1);
    const problems = os === 'windows' ? [] : await launcherProblems(agentFiles);
    if (problems.length) {
      console.error(`Refusing to run this agent as root: ${problems.join('; ')}.
Copy it to a root-owned folder first, e.g. sudo install -D -m 0755 <agent file> /opt/patchwell/patchwell-agent.cjs`);
      return 1;
    }
  }
  return (await applyPlan(plan, runProcess, (line) => console.log(line))) ? 0 : 1;
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
        if (flags.switches.has('json')) {
          const runtime = { node: process.version, platform: process.platform, arch: process.arch };
          console.log(JSON.stringify({ version: AGENT_VERSION, sea: isSea(), ...runtime }));
        } else console.log(AGENT_VERSION);
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
      case 'install-service':
        return await service(flags, 'install');
      case 'uninstall-service':
        return await service(flags, 'uninstall');
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
