/** Pure parsers for the Linux package managers' output (dpkg, apt, rpm, dnf, os-release, lsblk). */
import type { Disk, Patch, Severity, SoftwareItem } from '../protocol.js';

/** `dpkg-query -W -f='${Package}\t${Version}\t${Architecture}\n'` */
export function parseDpkgQuery(text: string): SoftwareItem[] {
  const out: SoftwareItem[] = [];
  for (const line of text.split('\n')) {
    const [name, version, arch] = line.split('\t');
    if (!name || !version) continue; // removed-but-configured packages have no version
    out.push({ name: name.trim(), version: version.trim(), source: 'dpkg', arch: arch?.trim() || null });
  }
  return out;
}

/** `rpm -qa --qf '%{NAME}\t%{VERSION}-%{RELEASE}\t%{ARCH}\n'` */
export function parseRpmQuery(text: string): SoftwareItem[] {
  const out: SoftwareItem[] = [];
  for (const line of text.split('\n')) {
    const [name, version, arch] = line.split('\t');
    if (!name || !version) continue;
    out.push({ name: name.trim(), version: version.trim(), source: 'rpm', arch: arch?.trim() || null });
  }
  return out;
}

/** Security pockets are the only severity signal apt gives without a CVE feed. */
function aptSeverity(origin: string): Severity {
  return /securi/i.test(origin) ? 'high' : 'unknown';
}

/** The most telling of a package's origins ("Debian:12.15/oldstable, Debian-Security:12/oldstable-security"). */
function aptSource(origin: string): string {
  const origins = origin.split(/,\s*/).filter(Boolean);
  const chosen = origins.find((o) => /securi/i.test(o)) ?? origins[0];
  return chosen ? `apt:${chosen}` : 'apt';
}

export type AptChange = {
  action: 'install' | 'remove' | 'configure';
  name: string;
  current_version: string | null;
  version: string | null;
  origin: string;
  arch: string | null;
};

/**
 * `apt-get -s upgrade|install|remove`: lines such as
 * `Inst bash [5.2.15-2+b8] (5.2.15-2+b13 Debian:12.15/oldstable [amd64])`,
 * `Inst newpkg (1.0 Debian:12/stable [all])`, `Remv foo [1.2]`.
 */
export function parseAptSimulation(text: string): AptChange[] {
  const out: AptChange[] = [];
  const re = /^(Inst|Remv|Conf) (\S+)(?: \[([^\]]+)\])?(?: \((\S+)(?: ([^[]*?))?(?: \[([^\]]+)\])?\))?/;
  for (const line of text.split('\n')) {
    const m = re.exec(line.trim());
    if (!m) continue;
    const [, verb, name, current, version, origin, arch] = m;
    if (verb === 'Conf') continue;
    out.push({
      action: verb === 'Inst' ? 'install' : 'remove',
      name: name!,
      current_version: current ?? null,
      version: version ?? null,
      origin: origin?.trim() ?? '',
      arch: arch ?? null,
    });
  }
  return out;
}

/** Pending upgrades from `apt-get -s upgrade`. */
export function parseAptUpgradeSimulation(text: string): Patch[] {
  return parseAptSimulation(text)
    .filter((c) => c.action === 'install' && c.version)
    .map((c) => ({
      name: c.name,
      current_version: c.current_version,
      version: c.version!,
      severity: aptSeverity(c.origin),
      cves: [],
      kb: null,
      source: aptSource(c.origin),
      reboot_required: /^(linux-image|linux-modules|libc6$|systemd$|dbus$)/.test(c.name),
      published_at: null,
    }));
}

/** `apt list --upgradable`: `bash/oldstable 5.2.15-2+b13 amd64 [upgradable from: 5.2.15-2+b8]` */
export function parseAptListUpgradable(text: string): Patch[] {
  const out: Patch[] = [];
  const re = /^([^/\s]+)\/(\S+) (\S+) (\S+) \[upgradable from: ([^\]]+)\]/;
  for (const line of text.split('\n')) {
    const m = re.exec(line.trim());
    if (!m) continue;
    const [, name, suites, version, , current] = m;
    out.push({
      name: name!,
      current_version: current!,
      version: version!,
      severity: aptSeverity(suites!),
      cves: [],
      kb: null,
      source: `apt:${suites}`,
      reboot_required: /^(linux-image|linux-modules|libc6$|systemd$|dbus$)/.test(name!),
      published_at: null,
    });
  }
  return out;
}

/**
 * `dnf check-update` (exit 100 when updates exist): `openssl.x86_64  1:3.0.7-27.el9  baseos`.
 * Stops at "Obsoleting Packages"; skips metadata lines.
 */
export function parseDnfCheckUpdate(text: string, installed: Map<string, string> = new Map()): Patch[] {
  const out: Patch[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (/^Obsoleting Packages/i.test(line)) break;
    const parts = line.split(/\s+/);
    if (parts.length !== 3) continue;
    const [nameArch, version, repo] = parts as [string, string, string];
    const dot = nameArch.lastIndexOf('.');
    if (dot <= 0 || !/^[\w:.+~-]+$/.test(version) || !/\d/.test(version)) continue;
    const name = nameArch.slice(0, dot);
    out.push({
      name,
      current_version: installed.get(name) ?? null,
      version,
      severity: /secur/i.test(repo) ? 'high' : 'unknown',
      cves: [],
      kb: null,
      source: `dnf:${repo}`,
      reboot_required: /^(kernel|glibc$|systemd$)/.test(name),
      published_at: null,
    });
  }
  return out;
}

/** /etc/os-release (shell-style KEY="value" lines). */
export function parseOsRelease(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    out[m[1]!] = m[2]!.replace(/^["']|["']$/g, '').replace(/\\(["$`\\])/g, '$1');
  }
  return out;
}

type LsblkDevice = { name?: string; size?: number | string; type?: string; rota?: boolean | string };

/** `lsblk -b -J`: whole disks with a size (zram and loop devices left out). */
export function parseLsblk(text: string): Disk[] {
  const parsed = JSON.parse(text) as { blockdevices?: LsblkDevice[] };
  return (parsed.blockdevices ?? [])
    .filter((d) => d.type === 'disk' && Number(d.size) > 0 && !/^(zram|loop|ram)/.test(d.name ?? ''))
    .map((d) => ({ name: d.name ?? '', size_bytes: Number(d.size), type: d.type ?? 'disk' }));
}
