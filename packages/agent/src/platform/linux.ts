/**
 * The Linux adapter: dpkg/apt (Debian, Ubuntu) and rpm/dnf (Fedora, RHEL). Reads the real
 * machine; changes it only through the commands the executor runs with --allow-changes.
 */
import { access, readFile } from 'node:fs/promises';
import os from 'node:os';
import { capture, runProcess, type ProcessRunner } from '../jobs/process.js';
import type { DeviceStatus, Patch, SoftwareItem, SystemInfo } from '../protocol.js';
import { createLinuxNotifier } from '../notify/linux.js';
import { desktopDisplay, startX11vnc, x11vncAuth } from '../remote/tunnel.js';
import { AGENT_VERSION } from '../version.js';
import { fallbackMachineId, ipAddrs, nics, timezone } from './common.js';
import {
  parseAptUpgradeSimulation,
  parseDnfCheckUpdate,
  parseDpkgQuery,
  parseLsblk,
  parseOsRelease,
  parseRpmQuery,
} from './linux.parsers.js';
import { assertSafeToken, type PackageAction, type Platform } from './platform.js';

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

async function readText(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    return null;
  }
}

async function which(cmd: string): Promise<boolean> {
  const dirs = (process.env.PATH ?? '/usr/bin:/bin').split(':');
  for (const dir of [...dirs, '/usr/sbin', '/sbin']) if (await exists(`${dir}/${cmd}`)) return true;
  return false;
}

export function createLinuxPlatform(run: ProcessRunner = runProcess): Platform {
  type Managers = { dpkg: boolean; apt: boolean; rpm: boolean; dnf: boolean };
  let managers: Promise<Managers> | null = null;
  let known: Managers | null = null;
  const detect = () =>
    (managers ??= (async () => {
      known = {
        dpkg: await which('dpkg-query'),
        apt: await which('apt-get'),
        rpm: await which('rpm'),
        dnf: await which('dnf'),
      };
      return known;
    })());

  const aptEnv = { DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' };

  async function loggedInUser(): Promise<string | null> {
    const who = await capture(run, 'who', [], 5_000);
    const first = who?.stdout
      .split('\n')
      .find((l) => l.trim())
      ?.split(/\s+/)[0];
    if (first) return first;
    try {
      return os.userInfo().username;
    } catch {
      return null;
    }
  }

  const platform: Platform = {
    family: 'linux',
    notifier: createLinuxNotifier({ run }),
    // x11vnc for the session only, on the signed-in user's display (logind's, as the notifier
    // finds it) or the agent's own.
    remoteDesktop: async () =>
      startX11vnc(await desktopDisplay(run, process.env), x11vncAuth(process.env, process.getuid?.())),
    // x11vnc comes from the distribution's packages, installed the first time it is needed.
    remoteDesktopSetup: async () => {
      if (await which('x11vnc')) return null;
      await detect();
      return {
        what: 'x11vnc',
        install: platform.packageCommand({ type: 'install_package', name: 'x11vnc' }, { simulate: false }),
      };
    },

    async machineId() {
      return (await readText('/etc/machine-id')) || (await readText('/var/lib/dbus/machine-id')) || fallbackMachineId();
    },

    async system(): Promise<SystemInfo> {
      const rel = parseOsRelease((await readText('/etc/os-release')) ?? '');
      const fqdn = (await capture(run, 'hostname', ['-f'], 5_000))?.stdout.trim() || os.hostname();
      const lsblk = await capture(run, 'lsblk', ['-b', '-J', '-d', '-o', 'NAME,SIZE,TYPE'], 10_000);
      let disks: SystemInfo['disks'] = [];
      try {
        if (lsblk?.exitCode === 0) disks = parseLsblk(lsblk.stdout);
      } catch {
        disks = [];
      }
      const cpus = os.cpus();
      const dmi = (f: string) => readText(`/sys/class/dmi/id/${f}`);
      return {
        hostname: os.hostname(),
        fqdn,
        os_family: 'linux',
        os_name: rel.PRETTY_NAME ?? rel.NAME ?? 'Linux',
        os_version: rel.VERSION_ID ?? os.release(),
        arch: os.machine(),
        kernel: os.release(),
        cpu: cpus[0]?.model.trim() ?? 'unknown',
        cpu_cores: cpus.length,
        ram_bytes: os.totalmem(),
        disks,
        nics: nics(),
        model: await dmi('product_name'),
        serial: await dmi('product_serial'),
        vendor: await dmi('sys_vendor'),
        timezone: timezone(),
        agent_version: AGENT_VERSION,
        uptime_s: Math.round(os.uptime()),
        logged_in_user: await loggedInUser(),
      };
    },

    async status(): Promise<DeviceStatus> {
      return {
        uptime_s: Math.round(os.uptime()),
        logged_in_user: await loggedInUser(),
        needs_reboot: await exists('/var/run/reboot-required'),
        ...ipAddrs(),
      };
    },

    async software(): Promise<SoftwareItem[]> {
      const m = await detect();
      const out: SoftwareItem[] = [];
      if (m.dpkg) {
        const r = await capture(run, 'dpkg-query', ['-W', '-f=${Package}\t${Version}\t${Architecture}\n']);
        if (r) out.push(...parseDpkgQuery(r.stdout));
      }
      if (m.rpm) {
        const r = await capture(run, 'rpm', ['-qa', '--qf', '%{NAME}\t%{VERSION}-%{RELEASE}\t%{ARCH}\n']);
        if (r) out.push(...parseRpmQuery(r.stdout));
      }
      return out;
    },

    async patches(): Promise<Patch[]> {
      const m = await detect();
      if (m.apt) {
        // -s never needs root and never changes the machine; the lists are as fresh as the last apt update.
        const r = await capture(run, 'apt-get', ['-s', '-o', 'Debug::NoLocking=1', 'upgrade'], 300_000);
        return r ? parseAptUpgradeSimulation(r.stdout) : [];
      }
      if (m.dnf) {
        const r = await capture(run, 'dnf', ['-q', 'check-update'], 300_000);
        const installed = new Map((m.rpm ? await this.software() : []).map((s) => [s.name, s.version]));
        return r ? parseDnfCheckUpdate(r.stdout, installed) : [];
      }
      return [];
    },

    packageCommand(action: PackageAction, { simulate }) {
      const m = known as Managers | null;
      return linuxPackageCommand(action, simulate, aptEnv, m && !m.apt && m.dnf ? 'dnf' : 'apt');
    },

    scriptCommand(language, script) {
      if (language === 'powershell')
        return { command: 'pwsh', args: ['-NoProfile', '-NonInteractive', '-Command', '-'], input: script };
      return { command: 'bash', args: ['-s'], input: script };
    },

    rebootCommand(delayS) {
      const minutes = Math.max(0, Math.ceil(delayS / 60));
      return {
        command: 'shutdown',
        args: ['-r', minutes === 0 ? 'now' : `+${minutes}`, 'Patchwell: reboot requested'],
      };
    },
  };
  return platform;
}

/** apt-get invocations; `-s` simulates. (dnf systems: the same actions through dnf.) */
export function linuxPackageCommand(
  action: PackageAction,
  simulate: boolean,
  env: Record<string, string> = {},
  manager: 'apt' | 'dnf' = 'apt',
) {
  if (manager === 'dnf') {
    const base = simulate ? ['--assumeno'] : ['-y'];
    switch (action.type) {
      case 'install_all':
        return { command: 'dnf', args: [...base, 'upgrade'], env };
      case 'install_updates':
        return {
          command: 'dnf',
          args: [...base, 'upgrade', ...action.names.map((n) => assertSafeToken(n, 'package'))],
          env,
        };
      case 'install_package':
        return {
          command: 'dnf',
          args: [
            ...base,
            'install',
            action.version
              ? `${assertSafeToken(action.name, 'package')}-${assertSafeToken(action.version, 'version')}`
              : assertSafeToken(action.name, 'package'),
          ],
          env,
        };
      case 'remove_package':
        return { command: 'dnf', args: [...base, 'remove', assertSafeToken(action.name, 'package')], env };
    }
  }
  const base = simulate ? ['-s', '-o', 'Debug::NoLocking=1'] : ['-y', '-o', 'Dpkg::Options::=--force-confold'];
  switch (action.type) {
    case 'install_all':
      return { command: 'apt-get', args: [...base, 'upgrade'], env };
    case 'install_updates':
      return {
        command: 'apt-get',
        args: [...base, 'install', '--only-upgrade', ...action.names.map((n) => assertSafeToken(n, 'package'))],
        env,
      };
    case 'install_package': {
      const name = assertSafeToken(action.name, 'package');
      const spec = action.version ? `${name}=${assertSafeToken(action.version, 'version')}` : name;
      return { command: 'apt-get', args: [...base, 'install', spec], env };
    }
    case 'remove_package':
      return { command: 'apt-get', args: [...base, 'remove', assertSafeToken(action.name, 'package')], env };
  }
}
