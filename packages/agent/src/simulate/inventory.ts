/**
 * Generates a simulated machine: its system facts, hundreds of installed packages from the
 * built-in lists, and pending patches with CVE ids, severities and (on Windows) KB numbers.
 * Pure and seeded: the same (seed, index) always gives the same machine.
 */
import { createHash } from 'node:crypto';
import type { OsFamily, Patch, Severity, SoftwareItem, SystemInfo } from '../protocol.js';
import { fitPatches, fitSoftware } from '../jobs/inventory.js';
import { AGENT_VERSION } from '../version.js';
import {
  LINUX_LIB_STEMS,
  LINUX_PACKAGES,
  MAC_APPS,
  MAC_PKG_RECEIPTS,
  THIRD_PARTY_UPDATABLE,
  WINDOWS_APPS,
  WINDOWS_COMPONENT_STEMS,
} from './catalog.js';
import { createRng, deviceSeed, type Rng } from './rng.js';

export type SimMachine = {
  index: number;
  machineId: string;
  system: SystemInfo;
  software: SoftwareItem[];
  patches: Patch[];
  needsReboot: boolean;
  ipPrivate: string;
  ipPublic: string;
};

type OsProfile = { os_name: string; os_version: string; kernel: string; pkg: 'deb' | 'rpm' | 'mac' | 'win' };

/** How a Linux distribution writes its package versions. */
type Distro =
  { kind: 'ubuntu'; release: string } | { kind: 'debian'; release: string } | { kind: 'el'; release: string };

/** The distribution of a Linux profile, from its name and version. */
function distroOf(profile: OsProfile): Distro {
  if (profile.os_name.startsWith('Ubuntu')) return { kind: 'ubuntu', release: profile.os_version };
  if (profile.os_name.startsWith('Debian')) return { kind: 'debian', release: profile.os_version };
  // el9_4 for a 9.4 release: dnf's packages carry the major and the minor they were built for.
  return { kind: 'el', release: profile.os_version.replace('.', '_') };
}

const PROFILES: Record<OsFamily, OsProfile[]> = {
  windows: [
    { os_name: 'Windows 11 Pro', os_version: '10.0.26100', kernel: '10.0.26100', pkg: 'win' },
    { os_name: 'Windows 11 Enterprise', os_version: '10.0.22631', kernel: '10.0.22631', pkg: 'win' },
    { os_name: 'Windows 10 Pro', os_version: '10.0.19045', kernel: '10.0.19045', pkg: 'win' },
    { os_name: 'Windows Server 2022 Datacenter', os_version: '10.0.20348', kernel: '10.0.20348', pkg: 'win' },
    { os_name: 'Windows Server 2019 Standard', os_version: '10.0.17763', kernel: '10.0.17763', pkg: 'win' },
  ],
  mac: [
    { os_name: 'macOS Sequoia 15.1', os_version: '15.1', kernel: '24.1.0', pkg: 'mac' },
    { os_name: 'macOS Sonoma 14.7', os_version: '14.7', kernel: '23.6.0', pkg: 'mac' },
    { os_name: 'macOS Ventura 13.7', os_version: '13.7', kernel: '22.6.0', pkg: 'mac' },
  ],
  linux: [
    { os_name: 'Ubuntu 24.04.1 LTS', os_version: '24.04', kernel: '6.8.0-48-generic', pkg: 'deb' },
    { os_name: 'Ubuntu 22.04.5 LTS', os_version: '22.04', kernel: '5.15.0-124-generic', pkg: 'deb' },
    { os_name: 'Debian GNU/Linux 12 (bookworm)', os_version: '12', kernel: '6.1.0-26-amd64', pkg: 'deb' },
    { os_name: 'Rocky Linux 9.4 (Blue Onyx)', os_version: '9.4', kernel: '5.14.0-427.40.1.el9_4.x86_64', pkg: 'rpm' },
    {
      os_name: 'Red Hat Enterprise Linux 9.4 (Plow)',
      os_version: '9.4',
      kernel: '5.14.0-427.42.1.el9_4.x86_64',
      pkg: 'rpm',
    },
  ],
};

const SEVERITIES: { s: Severity; w: number }[] = [
  { s: 'critical', w: 8 },
  { s: 'high', w: 25 },
  { s: 'medium', w: 35 },
  { s: 'low', w: 17 },
  { s: 'none', w: 5 },
  { s: 'unknown', w: 10 },
];

function severity(rng: Rng): Severity {
  let r = rng.next() * 100;
  for (const { s, w } of SEVERITIES) if ((r -= w) < 0) return s;
  return 'unknown';
}

function cves(rng: Rng, sev: Severity): string[] {
  const n = sev === 'none' || sev === 'unknown' ? rng.int(0, 1) : rng.int(1, sev === 'critical' ? 6 : 3);
  return Array.from({ length: n }, () => `CVE-${rng.int(2024, 2026)}-${rng.int(1000, 59999)}`);
}

function semver(rng: Rng): string {
  return `${rng.int(0, 30)}.${rng.int(0, 20)}.${rng.int(0, 40)}`;
}

function bump(version: string, rng: Rng): string {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?(.*)$/.exec(version);
  if (!m) return `${version}.1`;
  const patch = Number(m[3] ?? 0) + rng.int(1, 4);
  return `${m[1]}.${m[2]}.${patch}${m[4] ?? ''}`;
}

export function pickFamily(rng: Rng): OsFamily {
  const r = rng.next();
  return r < 0.5 ? 'windows' : r < 0.75 ? 'mac' : 'linux';
}

/**
 * Every name carries the device's number, so that fleets numbered apart (the demo's zones)
 * never share a hostname; the random parts only make them look like a real fleet's.
 */
function hostname(rng: Rng, family: OsFamily, number: number, server: boolean): string {
  const n = String(number).padStart(4, '0');
  if (family === 'windows')
    return server ? `SRV-${rng.pick(['APP', 'SQL', 'FS', 'DC', 'WEB'])}-${n}` : `WS-${rng.hex(2).toUpperCase()}${n}`;
  if (family === 'mac')
    return `${rng.pick(['ana', 'ben', 'chloe', 'dev', 'eli', 'fatima', 'gus', 'hana', 'ivan', 'jo'])}-mbp-${n}`;
  return `${rng.pick(['web', 'api', 'db', 'cache', 'worker', 'build', 'mon', 'proxy'])}-${rng.pick(['eu', 'us', 'ap'])}-${n}`;
}

/**
 * A package version as the distribution writes it: `2.34-0ubuntu3.2` or `1.2.3-1ubuntu0.24.04.1`
 * on Ubuntu, `1.2.3-4+deb12u1` on Debian, `1.2.3-4.el9_4` on RHEL and Rocky.
 */
export function distroVersion(rng: Rng, distro: Distro): string {
  const upstream = semver(rng);
  switch (distro.kind) {
    case 'ubuntu':
      return rng.chance(0.5)
        ? `${upstream}-${rng.int(0, 3)}ubuntu${rng.int(1, 9)}${rng.chance(0.5) ? `.${rng.int(1, 9)}` : ''}`
        : `${upstream}-${rng.int(1, 9)}ubuntu0.${distro.release}.${rng.int(1, 9)}`;
    case 'debian':
      return `${upstream}-${rng.int(1, 9)}${rng.chance(0.3) ? `+deb${distro.release}u${rng.int(1, 9)}` : ''}`;
    case 'el':
      return `${upstream}-${rng.int(1, 40)}.el${distro.release}`;
  }
}

/**
 * The next packaged release of a Linux version: the distribution's own revision goes up and
 * its suffix stays (`-0ubuntu3.2` → `-0ubuntu3.3`, `+deb12u1` → `+deb12u2`, `-4.el9_4` → `-5.el9_4`).
 */
export function bumpRelease(version: string, rng: Rng): string {
  const dash = version.indexOf('-');
  if (dash < 0) return bump(version, rng);
  const upstream = version.slice(0, dash);
  const release = version.slice(dash + 1);
  const el = /^(\d+)(\.el\d+(?:_\d+)?)$/.exec(release);
  if (el) return `${upstream}-${Number(el[1]) + rng.int(1, 3)}${el[2]}`;
  // The last number of the release is the distribution's update counter.
  const m = /^(.*?)(\d+)$/.exec(release);
  return m ? `${upstream}-${m[1]}${Number(m[2]) + rng.int(1, 3)}` : `${upstream}-${release}.1`;
}

function linuxSoftware(rng: Rng, distro: Distro): SoftwareItem[] {
  const rpm = distro.kind === 'el';
  const names = [
    ...rng.sample(LINUX_PACKAGES, rng.int(140, LINUX_PACKAGES.length)),
    ...rng.sample(LINUX_LIB_STEMS, rng.int(90, LINUX_LIB_STEMS.length)).map((s) => `lib${s}`),
  ];
  const devs = rng.sample(LINUX_LIB_STEMS, rng.int(0, 40)).map((s) => `lib${s.replace(/[\d.-]+$/, '')}-dev`);
  return [...new Set([...names, ...devs])].map((name) => ({
    name,
    version: distroVersion(rng, distro),
    source: rpm ? 'rpm' : 'dpkg',
    arch: rng.chance(0.15) ? (rpm ? 'noarch' : 'all') : rpm ? 'x86_64' : 'amd64',
  }));
}

function windowsSoftware(rng: Rng): SoftwareItem[] {
  const apps = rng.sample(WINDOWS_APPS, rng.int(35, WINDOWS_APPS.length)).map((a) => ({
    name: a.name,
    version: semver(rng),
    source: `registry:${a.publisher}`,
    arch: rng.chance(0.8) ? 'x64' : 'x86',
  }));
  const components = rng.sample(WINDOWS_COMPONENT_STEMS, rng.int(20, WINDOWS_COMPONENT_STEMS.length)).flatMap((stem) =>
    ['x64', 'x86'].slice(0, rng.int(1, 2)).map((arch) => ({
      name: `${stem} (${arch})`,
      version: `${rng.int(1, 14)}.${rng.int(0, 40)}.${rng.int(10000, 40000)}`,
      source: 'registry:Microsoft Corporation',
      arch,
    })),
  );
  const kbs = Array.from({ length: rng.int(20, 90) }, () => ({
    name: `Update for Microsoft Windows (KB${rng.int(5000000, 5049999)})`,
    version: 'installed',
    source: 'windows_update:hotfix',
    arch: 'x64',
  }));
  return [...apps, ...components, ...kbs];
}

function macSoftware(rng: Rng): SoftwareItem[] {
  const apps = rng.sample(MAC_APPS, rng.int(90, MAC_APPS.length)).map((name, i) => ({
    name,
    version: semver(rng),
    source: i < 60 && rng.chance(0.6) ? 'app:apple' : 'app:identified_developer',
    arch: rng.chance(0.8) ? 'arm_i64' : 'x86_64',
  }));
  const receipts = rng.sample(MAC_PKG_RECEIPTS, rng.int(15, MAC_PKG_RECEIPTS.length)).map((name) => ({
    name,
    version: semver(rng),
    source: 'pkgutil',
    arch: null,
  }));
  return [...apps, ...receipts];
}

function publishedAt(rng: Rng, now: number): string {
  return new Date(now - rng.int(1, 90) * 86_400_000).toISOString();
}

function linuxPatches(rng: Rng, software: SoftwareItem[], rpm: boolean, now: number): Patch[] {
  return rng.sample(software, rng.int(0, 45)).map((pkg) => {
    const sev = severity(rng);
    return {
      name: pkg.name,
      current_version: pkg.version,
      version: bumpRelease(pkg.version, rng),
      severity: sev,
      cves: cves(rng, sev),
      kb: null,
      source: rpm
        ? `dnf:${sev === 'low' || sev === 'unknown' ? 'appstream' : 'baseos'}`
        : `apt:${sev === 'unknown' ? 'updates' : 'security'}`,
      reboot_required: /^(linux-image|libc6|systemd|dbus)/.test(pkg.name),
      published_at: publishedAt(rng, now),
    };
  });
}

const MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

function windowsPatches(rng: Rng, system: SystemInfo, software: SoftwareItem[], now: number): Patch[] {
  const out: Patch[] = [];
  const month = `2026-${rng.pick(MONTHS.slice(8))}`;
  const product = system.os_name.replace(/ (Pro|Enterprise|Datacenter|Standard)$/, '');
  if (rng.chance(0.7)) {
    const kb = `KB${rng.int(5040000, 5049999)}`;
    out.push({
      name: `${month} Cumulative Update for ${product} for x64-based Systems (${kb})`,
      current_version: null,
      version: kb,
      severity: rng.chance(0.5) ? 'critical' : 'high',
      cves: Array.from({ length: rng.int(8, 40) }, () => `CVE-2026-${rng.int(20000, 49999)}`),
      kb,
      source: 'windows_update:Security Updates',
      reboot_required: true,
      published_at: publishedAt(rng, now),
    });
  }
  if (rng.chance(0.4)) {
    const kb = `KB${rng.int(5040000, 5049999)}`;
    out.push({
      name: `${month} Cumulative Update for .NET Framework 3.5, 4.8 and 4.8.1 for ${product} (${kb})`,
      current_version: null,
      version: kb,
      severity: 'high',
      cves: cves(rng, 'high'),
      kb,
      source: 'windows_update:Security Updates',
      reboot_required: false,
      published_at: publishedAt(rng, now),
    });
  }
  if (rng.chance(0.8)) {
    const v = `1.421.${rng.int(100, 999)}.0`;
    out.push({
      name: `Security Intelligence Update for Microsoft Defender Antivirus - KB2267602 (Version ${v})`,
      current_version: null,
      version: v,
      severity: 'none',
      cves: [],
      kb: 'KB2267602',
      source: 'windows_update:Definition Updates',
      reboot_required: false,
      published_at: publishedAt(rng, now),
    });
  }
  if (rng.chance(0.3)) {
    const kb = 'KB890830';
    out.push({
      name: `Windows Malicious Software Removal Tool x64 - v5.${rng.int(120, 135)} (${kb})`,
      current_version: null,
      version: `5.${rng.int(120, 135)}`,
      severity: 'unknown',
      cves: [],
      kb,
      source: 'windows_update:Update Rollups',
      reboot_required: false,
      published_at: publishedAt(rng, now),
    });
  }
  return [...out, ...thirdPartyPatches(rng, software, now)];
}

function thirdPartyPatches(rng: Rng, software: SoftwareItem[], now: number): Patch[] {
  return software
    .filter((s) => THIRD_PARTY_UPDATABLE.includes(s.name) && rng.chance(0.35))
    .map((s) => {
      const sev = severity(rng);
      return {
        name: s.name,
        current_version: s.version,
        version: bump(s.version, rng),
        severity: sev,
        cves: cves(rng, sev),
        kb: null,
        source: 'third_party',
        reboot_required: false,
        published_at: publishedAt(rng, now),
      };
    });
}

function macPatches(rng: Rng, system: SystemInfo, software: SoftwareItem[], now: number): Patch[] {
  const out: Patch[] = [];
  if (rng.chance(0.5)) {
    const version = bump(system.os_version.includes('.') ? system.os_version : `${system.os_version}.0`, rng);
    const name = `${system.os_name.replace(/ [\d.]+$/, '')} ${version}`;
    out.push({
      name: `${name}-${rng.int(24, 24)}B${rng.int(10, 99)}`,
      current_version: system.os_version,
      version,
      severity: rng.chance(0.4) ? 'critical' : 'high',
      cves: Array.from({ length: rng.int(5, 30) }, () => `CVE-2026-${rng.int(20000, 49999)}`),
      kb: null,
      source: `softwareupdate:${name}`,
      reboot_required: true,
      published_at: publishedAt(rng, now),
    });
  }
  if (rng.chance(0.3)) {
    out.push({
      name: `Safari18.${rng.int(1, 3)}${system.os_name.split(' ')[1] ?? ''}Auto-18.${rng.int(1, 3)}`,
      current_version: null,
      version: `18.${rng.int(1, 3)}`,
      severity: 'high',
      cves: cves(rng, 'high'),
      kb: null,
      source: 'softwareupdate:Safari',
      reboot_required: false,
      published_at: publishedAt(rng, now),
    });
  }
  if (rng.chance(0.4)) {
    out.push({
      name: `XProtectPlistConfigData_10_15-${rng.int(5270, 5290)}`,
      current_version: null,
      version: String(rng.int(5270, 5290)),
      severity: 'medium',
      cves: [],
      kb: null,
      source: 'softwareupdate:XProtectPlistConfigData',
      reboot_required: false,
      published_at: publishedAt(rng, now),
    });
  }
  return [...out, ...thirdPartyPatches(rng, software, now)];
}

/**
 * A machine id from the fleet seed and the index, not from the machine's random stream:
 * mulberry32's streams of two seeds can overlap, so ids drawn from them collide now and then
 * in a fleet of 100,000, and a hash of the pair never does in practice.
 */
export function simMachineId(seed: number, index: number): string {
  return `sim-${createHash('sha256').update(`patchwell-sim:${seed}:${index}`).digest('hex').slice(0, 32)}`;
}

/**
 * Builds machine number `index` of the fleet with the given seed. `hostNumber` (default
 * `index`) numbers its hostname: fleets that run side by side give disjoint ranges.
 */
export function generateMachine(
  seed: number,
  index: number,
  now: number = Date.UTC(2026, 10, 1),
  hostNumber: number = index,
): SimMachine {
  const rng = createRng(deviceSeed(seed, index));
  const family = pickFamily(rng);
  const profile = rng.pick(PROFILES[family]);
  const isServer = profile.os_name.includes('Server') || (family === 'linux' && rng.chance(0.8));
  const host = hostname(rng, family, hostNumber, isServer);
  const arch = family === 'mac' ? (rng.chance(0.8) ? 'arm64' : 'x86_64') : rng.chance(0.95) ? 'x86_64' : 'arm64';
  const ipPrivate = `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(2, 254)}`;
  const ipPublic = `${rng.pick([203, 198, 192])}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(2, 254)}`;
  const mac = Array.from({ length: 6 }, () => rng.hex(2)).join(':');
  const vendorModel: [string, string] =
    family === 'mac'
      ? ['Apple', rng.pick(['MacBookPro18,3', 'Mac14,2', 'Mac15,6', 'Macmini9,1', 'MacBookAir10,1'])]
      : isServer
        ? rng.pick<[string, string]>([
            ['Dell Inc.', 'PowerEdge R650'],
            ['HPE', 'ProLiant DL360 Gen10'],
            ['QEMU', 'Standard PC (Q35 + ICH9, 2009)'],
            ['Amazon EC2', 'm6i.large'],
            ['VMware, Inc.', 'VMware7,1'],
          ])
        : rng.pick<[string, string]>([
            ['Dell Inc.', 'Latitude 7440'],
            ['LENOVO', 'ThinkPad T14 Gen 4'],
            ['HP', 'EliteBook 840 G10'],
            ['Microsoft Corporation', 'Surface Laptop 5'],
          ]);
  const cores = rng.pick([2, 4, 8, 12, 16, 32]);
  const user = isServer ? null : rng.pick(['ana', 'ben', 'chloe', 'dev', 'eli', 'fatima', 'gus', 'hana', 'ivan', 'jo']);
  const system: SystemInfo = {
    hostname: host,
    fqdn: family === 'windows' ? `${host}.corp.example.com` : `${host}.example.com`,
    os_family: family,
    os_name: profile.os_name,
    os_version: profile.os_version,
    arch,
    kernel: profile.kernel,
    cpu:
      family === 'mac' && arch === 'arm64'
        ? rng.pick(['Apple M1', 'Apple M2 Pro', 'Apple M3', 'Apple M4 Pro'])
        : rng.pick([
            'Intel(R) Core(TM) i7-1365U',
            'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz',
            'AMD EPYC 7R13 Processor',
            'AMD Ryzen 7 PRO 7840U',
          ]),
    cpu_cores: cores,
    ram_bytes: rng.pick([8, 16, 32, 64, 128]) * 2 ** 30,
    disks: [
      {
        name: family === 'windows' ? 'NVMe SSD' : family === 'mac' ? 'disk0' : 'nvme0n1',
        size_bytes: rng.pick([256, 512, 1024, 2048]) * 10 ** 9,
        type: 'disk',
      },
    ],
    nics: [{ name: family === 'windows' ? 'Ethernet' : family === 'mac' ? 'en0' : 'eth0', mac, ips: [ipPrivate] }],
    model: vendorModel[1],
    serial: rng.hex(10).toUpperCase(),
    vendor: vendorModel[0],
    timezone: rng.pick([
      'Europe/Berlin',
      'Europe/London',
      'America/New_York',
      'America/Los_Angeles',
      'Asia/Tokyo',
      'UTC',
    ]),
    agent_version: AGENT_VERSION,
    uptime_s: rng.int(600, 40 * 86_400),
    logged_in_user: user,
  };
  const software =
    profile.pkg === 'win'
      ? windowsSoftware(rng)
      : profile.pkg === 'mac'
        ? macSoftware(rng)
        : linuxSoftware(rng, distroOf(profile));
  const patches =
    profile.pkg === 'win'
      ? windowsPatches(rng, system, software, now)
      : profile.pkg === 'mac'
        ? macPatches(rng, system, software, now)
        : linuxPatches(rng, software, profile.pkg === 'rpm', now);
  return {
    index,
    machineId: simMachineId(seed, index),
    system,
    software: fitSoftware(software),
    patches: fitPatches(patches),
    needsReboot: rng.chance(0.08),
    ipPrivate,
    ipPublic,
  };
}
