import { isIP } from 'node:net';
import {
  BATCH_ISSUE_TYPES,
  SOLUTION_KINDS,
  type BatchIssueType,
  type BatchStatistics,
  type SolutionKind,
} from '@patchwell/core/remediation/batches.schema';
import { worseSeverity } from '@patchwell/core/remediation/scanner-formats';
import { REMEDIATION_SEVERITIES, type RemediationSeverity } from '@patchwell/core/remediation/scanners.schema';
import { fixOfPatch } from './patch-fix';

/**
 * Matching a batch's findings to the zone, without the database: each host × CVE finds its
 * device (hostname, FQDN or private IP, case-insensitively; a short name matches an FQDN's
 * first label), then what fixes the CVE there (a pending patch the agent reported, or a
 * catalogue worklet declaring the CVE for the device's OS), or the potential issue it is.
 * Remediations are grouped into solutions: one per fix (the patch name without what varies per
 * device, see patch-fix.ts), one per worklet; a fix's solution keeps, per device, the exact
 * patches that device reported, which its job installs.
 */

export type MatchDevice = {
  id: number;
  hostname: string;
  fqdn: string | null;
  ipAddrsPrivate: string[];
  osFamily: string;
};
export type MatchFinding = {
  id: number;
  hostname: string;
  fqdn: string | null;
  ipAddrs: string[];
  cve: string;
  severity: RemediationSeverity;
};
export type MatchPatch = { deviceId: number; name: string; severity: string; cves: string[] };
export type MatchWorklet = { id: string; name: string; osFamily: string; cves: readonly string[] };

export type PlannedSolution = {
  key: string;
  kind: SolutionKind;
  patchName: string | null;
  workletId: string | null;
  title: string;
  severity: RemediationSeverity;
  cves: string[];
  deviceIds: number[];
  /** A fix's patches to install, by device id (empty for a worklet). */
  devicePatches: Record<string, string[]>;
};

export type PlannedMatch = {
  id: number;
  deviceId: number | null;
  matchedBy: 'hostname' | 'fqdn' | 'ip' | null;
  issue: BatchIssueType | null;
  /** The solution that fixes the finding (the first by name when several patches do). */
  solutionKey: string | null;
};

export type MatchResult = {
  matches: PlannedMatch[];
  solutions: PlannedSolution[];
  statistics: Omit<BatchStatistics, 'rows'>;
  impactedDeviceCount: number;
};

const firstLabel = (name: string) => name.split('.')[0]!;
const normalName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

/** No device (shared: never written to). */
const NONE: ReadonlySet<number> = new Set();

/** The zone's devices by every name and address a scanner may use for them. */
function deviceIndex(devices: MatchDevice[]) {
  const byName = new Map<string, Set<number>>();
  const byFirstLabel = new Map<string, Set<number>>();
  const byShortHostname = new Map<string, Set<number>>();
  const byIp = new Map<string, Set<number>>();
  const ipsOf = new Map<number, readonly string[]>();
  for (const d of devices) {
    const names = [d.hostname, d.fqdn]
      .filter((n): n is string => Boolean(n))
      .map(normalName)
      .filter(Boolean);
    for (const name of names) {
      addTo(byName, name, d.id);
      addTo(byFirstLabel, firstLabel(name), d.id);
    }
    // A scanner's FQDN names a device known only by its short name; a device whose own FQDN is
    // known is another machine than an FQDN of another domain.
    if (names.length && names.every((n) => !n.includes('.'))) addTo(byShortHostname, names[0]!, d.id);
    for (const ip of d.ipAddrsPrivate) addTo(byIp, ip.toLowerCase(), d.id);
    ipsOf.set(
      d.id,
      d.ipAddrsPrivate.map((ip) => ip.toLowerCase()),
    );
  }
  return {
    /** Devices named `name`: exactly, else a short name against FQDNs' first labels and back. */
    byName(raw: string): ReadonlySet<number> {
      const name = normalName(raw);
      const exact = byName.get(name);
      if (exact) return exact;
      return (name.includes('.') ? byShortHostname.get(firstLabel(name)) : byFirstLabel.get(name)) ?? NONE;
    },
    byIps(ips: readonly string[]): ReadonlySet<number> {
      if (ips.length === 1) return byIp.get(ips[0]!.toLowerCase()) ?? NONE;
      const out = new Set<number>();
      for (const ip of ips) for (const id of byIp.get(ip.toLowerCase()) ?? []) out.add(id);
      return out;
    },
    /** Of several candidates, those that also hold one of the row's addresses. */
    narrow(candidates: ReadonlySet<number>, ips: readonly string[]): ReadonlySet<number> {
      if (candidates.size < 2 || ips.length === 0) return candidates;
      const wanted = new Set(ips.map((ip) => ip.toLowerCase()));
      return new Set([...candidates].filter((id) => ipsOf.get(id)!.some((ip) => wanted.has(ip))));
    },
  };
}

export type HostMatch =
  { deviceId: number; matchedBy: 'hostname' | 'fqdn' | 'ip' } | { issue: 'unknown_host' | 'duplicate_host' };

/**
 * The finding's device: by its host name, then its FQDN, then its addresses; the first key
 * naming exactly one device wins. A key naming several (two devices share a name or an
 * address) is narrowed by the row's addresses; still several is `duplicate_host`.
 */
function matchHost(index: ReturnType<typeof deviceIndex>, f: MatchFinding): HostMatch {
  const hostIsIp = isIP(f.hostname) !== 0;
  const ips = hostIsIp ? [f.hostname, ...f.ipAddrs] : f.ipAddrs;
  let isDuplicate = false;
  // Inline rather than a list of lookups: this runs once per row of a 20,000-row file.
  if (!hostIsIp) {
    const found = index.narrow(index.byName(f.hostname), ips);
    if (found.size === 1) return { deviceId: onlyOf(found), matchedBy: f.hostname.includes('.') ? 'fqdn' : 'hostname' };
    if (found.size > 1) isDuplicate = true;
  }
  if (f.fqdn) {
    const found = index.narrow(index.byName(f.fqdn), ips);
    if (found.size === 1) return { deviceId: onlyOf(found), matchedBy: 'fqdn' };
    if (found.size > 1) isDuplicate = true;
  }
  if (ips.length) {
    const found = index.narrow(index.byIps(ips), ips);
    if (found.size === 1) return { deviceId: onlyOf(found), matchedBy: 'ip' };
    if (found.size > 1) isDuplicate = true;
  }
  return { issue: isDuplicate ? 'duplicate_host' : 'unknown_host' };
}

const onlyOf = (set: ReadonlySet<number>): number => set.values().next().value!;

const asSeverity = (s: string): RemediationSeverity =>
  (REMEDIATION_SEVERITIES as readonly string[]).includes(s) ? (s as RemediationSeverity) : 'none';

type Building = Omit<PlannedSolution, 'devicePatches'> & {
  cveSet: Set<string>;
  deviceSet: Set<number>;
  patchesOf: Map<number, Set<string>>;
  fallback: RemediationSeverity;
};

/** Each finding's device, or why it has none (`unknown_host`, `duplicate_host`). */
export function matchHosts(findings: MatchFinding[], devices: MatchDevice[]): HostMatch[] {
  const index = deviceIndex(devices);
  return findings.map((f) => matchHost(index, f));
}

/**
 * Plans the batch's solutions from the hosts' matches: `patches` are the pending patches of
 * the matched devices fixing their findings' CVEs; `zoneCves`, the CVEs some device of the
 * zone has a pending patch for (a matched device without one is then `cve_not_applicable`).
 */
export function planSolutions(input: {
  findings: MatchFinding[];
  hosts: HostMatch[];
  devices: MatchDevice[];
  patches: MatchPatch[];
  worklets: MatchWorklet[];
  zoneCves: ReadonlySet<string>;
}): MatchResult {
  const osOf = new Map(input.devices.map((d) => [d.id, d.osFamily]));
  // device → CVE → the patches fixing it there.
  const fixes = new Map<number, Map<string, MatchPatch[]>>();
  for (const p of input.patches) {
    const byCve = fixes.get(p.deviceId) ?? new Map<string, MatchPatch[]>();
    fixes.set(p.deviceId, byCve);
    for (const cve of p.cves) {
      const list = byCve.get(cve);
      if (list) list.push(p);
      else byCve.set(cve, [p]);
    }
  }
  const workletsFor = new Map<string, MatchWorklet[]>();
  for (const w of input.worklets) for (const cve of w.cves) workletsFor.set(cve, [...(workletsFor.get(cve) ?? []), w]);

  // Thousands of devices report the same patch names: each name's fix, and the key of its
  // solution, is worked out once (a key built per finding was most of the planning's time).
  type Made = { kind: SolutionKind; patchName: string | null; workletId: string | null; title: string };
  const fixOfName = new Map<string, { key: string; made: Made }>();
  const fixOf = (name: string) => {
    let known = fixOfName.get(name);
    if (!known) {
      const fix = fixOfPatch(name);
      known = {
        key: `patch-now\u0000${fix}`,
        made: { kind: 'patch-now', patchName: fix, workletId: null, title: fix },
      };
      fixOfName.set(name, known);
    }
    return known;
  };
  const solutions = new Map<string, Building>();
  const solve = (
    key: string,
    made: Made,
    f: MatchFinding,
    deviceId: number,
    fallback: RemediationSeverity,
    patchName?: string,
  ): void => {
    let s = solutions.get(key);
    if (!s) {
      s = {
        key,
        ...made,
        severity: 'none',
        cves: [],
        deviceIds: [],
        cveSet: new Set(),
        deviceSet: new Set(),
        patchesOf: new Map(),
        fallback,
      };
      solutions.set(key, s);
    }
    s.cveSet.add(f.cve);
    s.deviceSet.add(deviceId);
    if (patchName !== undefined) addTo(s.patchesOf, deviceId, patchName);
    s.severity = worseSeverity(s.severity, f.severity);
    s.fallback = worseSeverity(s.fallback, fallback);
  };

  const matches = input.findings.map((f, i): PlannedMatch => {
    const host = input.hosts[i]!;
    if ('issue' in host) return { id: f.id, deviceId: null, matchedBy: null, issue: host.issue, solutionKey: null };
    const { deviceId, matchedBy } = host;
    const patches = fixes.get(deviceId)?.get(f.cve);
    if (patches) {
      // The finding's solution is the first by key of those its patches belong to.
      let first: string | null = null;
      for (const p of patches) {
        const { key, made } = fixOf(p.name);
        solve(key, made, f, deviceId, asSeverity(p.severity), p.name);
        if (first === null || key < first) first = key;
      }
      return { id: f.id, deviceId, matchedBy, issue: null, solutionKey: first };
    }
    const worklets = workletsFor.get(f.cve) ?? [];
    const worklet = worklets.find((w) => w.osFamily === osOf.get(deviceId));
    if (worklet) {
      const key = `patch-with-worklet\u0000${worklet.id}`;
      solve(
        key,
        { kind: 'patch-with-worklet', patchName: null, workletId: worklet.id, title: worklet.name },
        f,
        deviceId,
        'none',
      );
      return { id: f.id, deviceId, matchedBy, issue: null, solutionKey: key };
    }
    const issue: BatchIssueType = input.zoneCves.has(f.cve)
      ? 'cve_not_applicable'
      : worklets.length
        ? 'unsupported_host'
        : 'unknown_cve';
    return { id: f.id, deviceId, matchedBy, issue, solutionKey: null };
  });

  const planned: PlannedSolution[] = [...solutions.values()].map(
    ({ cveSet, deviceSet, patchesOf, fallback, ...s }): PlannedSolution => ({
      ...s,
      // A file without severities (a generic list) takes the patch's own.
      severity: s.severity === 'none' ? fallback : s.severity,
      cves: [...cveSet].sort(),
      deviceIds: [...deviceSet].sort((a, b) => a - b),
      devicePatches: Object.fromEntries([...patchesOf].map(([id, names]) => [String(id), [...names].sort()])),
    }),
  );
  return { matches, solutions: planned, ...statisticsOf(input.findings, matches, planned) };
}

/** CVEs of matched findings that neither a patch of their device nor a worklet for its OS fixes. */
export function unresolvedCves(
  findings: MatchFinding[],
  hosts: HostMatch[],
  devices: MatchDevice[],
  patches: MatchPatch[],
  worklets: MatchWorklet[],
): string[] {
  const osOf = new Map(devices.map((d) => [d.id, d.osFamily]));
  const fixed = new Set(patches.flatMap((p) => p.cves.map((cve) => `${p.deviceId} ${cve}`)));
  const byWorklet = new Set(worklets.flatMap((w) => w.cves.map((cve) => `${w.osFamily} ${cve}`)));
  const out = new Set<string>();
  findings.forEach((f, i) => {
    const host = hosts[i]!;
    if ('issue' in host) return;
    if (fixed.has(`${host.deviceId} ${f.cve}`) || byWorklet.has(`${osOf.get(host.deviceId)} ${f.cve}`)) return;
    out.add(f.cve);
  });
  return [...out];
}

/** Matches and plans in one go, the zone's CVEs taken from `patches` (tests, where patches are the zone's). */
export function matchBatch(input: {
  findings: MatchFinding[];
  devices: MatchDevice[];
  patches: MatchPatch[];
  worklets: MatchWorklet[];
}): MatchResult {
  const hosts = matchHosts(input.findings, input.devices);
  const zoneCves = new Set(input.patches.flatMap((p) => p.cves));
  return planSolutions({ ...input, hosts, zoneCves });
}

function statisticsOf(
  findings: MatchFinding[],
  matches: PlannedMatch[],
  solutions: PlannedSolution[],
): Pick<MatchResult, 'statistics' | 'impactedDeviceCount'> {
  const issues = Object.fromEntries(BATCH_ISSUE_TYPES.map((t) => [t, 0])) as Record<BatchIssueType, number>;
  for (const m of matches) if (m.issue) issues[m.issue]++;
  const byKind = Object.fromEntries(
    SOLUTION_KINDS.map((kind) => {
      const of = solutions.filter((s) => s.kind === kind);
      return [
        kind,
        {
          count: of.length,
          device_count: new Set(of.flatMap((s) => s.deviceIds)).size,
          vulnerability_count: new Set(of.flatMap((s) => s.cves)).size,
        },
      ];
    }),
  ) as BatchStatistics['solutions'];
  return {
    statistics: {
      findings: findings.length,
      vulnerabilities: new Set(findings.map((f) => f.cve)).size,
      issues,
      solutions: byKind,
    },
    impactedDeviceCount: new Set(solutions.flatMap((s) => s.deviceIds)).size,
  };
}
