/** The macOS adapter: softwareupdate, system_profiler, pkgutil (Homebrew for named packages). */
import os from 'node:os';
import { capture, runProcess, type ProcessRunner } from '../jobs/process.js';
import type { DeviceStatus, Patch, SoftwareItem, SystemInfo } from '../protocol.js';
import { createMacNotifier } from '../notify/mac.js';
import { existingVncServer } from '../remote/tunnel.js';
import { AGENT_VERSION } from '../version.js';
import { fallbackMachineId, ipAddrs, nics, timezone } from './common.js';
import {
  parsePkgutilInfo,
  parseSoftwareUpdateList,
  parseSwVers,
  parseSystemProfilerApps,
  parseSystemProfilerHardware,
} from './mac.parsers.js';
import { assertSafeToken, type PackageAction, type Platform } from './platform.js';

/** Third-party receipts only; Apple's own are covered by the OS version. */
export const PKGUTIL_SCRIPT =
  'for p in $(/usr/sbin/pkgutil --pkgs | grep -v "^com\\.apple\\."); do /usr/sbin/pkgutil --pkg-info "$p"; echo; done';

export function macPackageCommand(action: PackageAction, simulate: boolean) {
  switch (action.type) {
    case 'install_all':
      return simulate
        ? { command: '/usr/sbin/softwareupdate', args: ['-l'] }
        : { command: '/usr/sbin/softwareupdate', args: ['-i', '-a', '--agree-to-license'] };
    case 'install_updates': {
      const labels = action.names.map((n) => assertSafeToken(n, 'update label'));
      return simulate
        ? { command: '/usr/sbin/softwareupdate', args: ['-l'] }
        : { command: '/usr/sbin/softwareupdate', args: ['-i', ...labels, '--agree-to-license'] };
    }
    case 'install_package': {
      const base = assertSafeToken(action.name, 'package');
      const name = action.version ? `${base}@${assertSafeToken(action.version, 'version')}` : base;
      return { command: 'brew', args: simulate ? ['info', name] : ['install', name] };
    }
    case 'remove_package': {
      const name = assertSafeToken(action.name, 'package');
      return { command: 'brew', args: simulate ? ['info', name] : ['uninstall', name] };
    }
  }
}

export function createMacPlatform(run: ProcessRunner = runProcess): Platform {
  const hardware = async () => {
    const r = await capture(run, '/usr/sbin/system_profiler', ['SPHardwareDataType', '-json'], 60_000);
    try {
      return r ? parseSystemProfilerHardware(r.stdout) : null;
    } catch {
      return null;
    }
  };
  const consoleUser = async () =>
    (await capture(run, '/usr/bin/stat', ['-f', '%Su', '/dev/console'], 5_000))?.stdout.trim() || null;

  return {
    family: 'mac',
    notifier: createMacNotifier({ run }),
    // The built-in Screen Sharing (System Settings › General › Sharing), which the agent does not turn on.
    remoteDesktop: () => existingVncServer(5900, 'Screen Sharing'),

    async machineId() {
      return (await hardware())?.uuid ?? fallbackMachineId();
    },

    async system(): Promise<SystemInfo> {
      const vers = parseSwVers((await capture(run, '/usr/bin/sw_vers', [], 5_000))?.stdout ?? '');
      const hw = await hardware();
      const cpus = os.cpus();
      return {
        hostname: os.hostname(),
        fqdn: os.hostname(),
        os_family: 'mac',
        os_name: `${vers.ProductName ?? 'macOS'} ${vers.ProductVersion ?? ''}`.trim(),
        os_version: vers.ProductVersion ?? os.release(),
        arch: os.machine(),
        kernel: os.release(),
        cpu: hw?.cpu ?? cpus[0]?.model ?? 'unknown',
        cpu_cores: cpus.length,
        ram_bytes: hw?.memoryBytes ?? os.totalmem(),
        disks: [],
        nics: nics(),
        model: hw?.model ?? null,
        serial: hw?.serial ?? null,
        vendor: 'Apple',
        timezone: timezone(),
        agent_version: AGENT_VERSION,
        uptime_s: Math.round(os.uptime()),
        logged_in_user: await consoleUser(),
      };
    },

    async status(): Promise<DeviceStatus> {
      return {
        uptime_s: Math.round(os.uptime()),
        logged_in_user: await consoleUser(),
        needs_reboot: false,
        ...ipAddrs(),
      };
    },

    async software(): Promise<SoftwareItem[]> {
      const apps = await capture(run, '/usr/sbin/system_profiler', ['SPApplicationsDataType', '-json'], 300_000);
      const pkgs = await capture(run, '/bin/sh', ['-c', PKGUTIL_SCRIPT], 120_000);
      const out: SoftwareItem[] = [];
      try {
        if (apps) out.push(...parseSystemProfilerApps(apps.stdout));
      } catch {
        // A truncated profile: keep what pkgutil knows.
      }
      if (pkgs) out.push(...parsePkgutilInfo(pkgs.stdout));
      return out;
    },

    async patches(): Promise<Patch[]> {
      const r = await capture(run, '/usr/sbin/softwareupdate', ['-l'], 600_000);
      // softwareupdate prints the list on stdout and "No new software available." on stderr.
      return r ? parseSoftwareUpdateList(`${r.stdout}\n${r.stderr}`) : [];
    },

    packageCommand(action, { simulate }) {
      return macPackageCommand(action, simulate);
    },

    scriptCommand(language, script) {
      if (language === 'powershell')
        return { command: 'pwsh', args: ['-NoProfile', '-NonInteractive', '-Command', '-'], input: script };
      return { command: '/bin/bash', args: ['-s'], input: script };
    },

    rebootCommand(delayS) {
      const minutes = Math.max(0, Math.ceil(delayS / 60));
      return { command: '/sbin/shutdown', args: ['-r', minutes === 0 ? 'now' : `+${minutes}`] };
    },
  };
}
