import { describe, expect, it } from 'vitest';
import { matchBatch, type MatchDevice, type MatchFinding } from './batch-matching';

/** The matching rules alone, on hand-made zones (the HTTP tests run them on the samples). */

const device = (id: number, hostname: string, more: Partial<MatchDevice> = {}): MatchDevice => ({
  id,
  hostname,
  fqdn: null,
  ipAddrsPrivate: [],
  osFamily: 'linux',
  ...more,
});

let nextId = 1;
const finding = (hostname: string, more: Partial<MatchFinding> = {}): MatchFinding => ({
  id: nextId++,
  hostname,
  fqdn: null,
  ipAddrs: [],
  cve: 'CVE-2024-5535',
  severity: 'high',
  ...more,
});

const byTitle = <T extends { title: string }>(list: T[]) => [...list].sort((a, b) => a.title.localeCompare(b.title));

const openssl = (deviceId: number) => ({ deviceId, name: 'openssl', severity: 'high', cves: ['CVE-2024-5535'] });

function hostsOf(devices: MatchDevice[], findings: MatchFinding[]) {
  const { matches } = matchBatch({ findings, devices, patches: devices.map((d) => openssl(d.id)), worklets: [] });
  return matches.map((m) => (m.deviceId === null ? m.issue : `${m.deviceId} by ${m.matchedBy}`));
}

describe('matchBatch: hosts', () => {
  const zone = [
    device(7, 'mac-07', { ipAddrsPrivate: ['10.20.3.7'] }),
    device(1, 'WEB-EU-0012', { fqdn: 'web-eu-0012.example.com', ipAddrsPrivate: ['10.30.0.12'] }),
    device(2, 'db-us-0020.example.com', { ipAddrsPrivate: ['10.30.0.20'] }),
    device(3, 'kiosk', { ipAddrsPrivate: ['192.168.1.10'] }),
    device(4, 'printer', { ipAddrsPrivate: ['192.168.1.10'] }),
  ];

  it('matches a name or FQDN without case, and a short name against an FQDN’s first label', () => {
    expect(
      hostsOf(zone, [
        finding('web-eu-0012'),
        finding('Web-EU-0012.example.com'),
        finding('web-eu-0012.other.example'),
        finding('DB-US-0020'),
        finding('db-us-0020.example.com.'),
        finding('db-us-0020.other.example'),
        finding('MAC-07.corp.example.com'),
      ]),
    ).toEqual([
      '1 by hostname',
      '1 by fqdn',
      'unknown_host',
      '2 by hostname',
      '2 by fqdn',
      'unknown_host',
      '7 by fqdn',
    ]);
  });

  it('falls back to the FQDN column and then to private addresses; an address two devices share is a duplicate', () => {
    expect(
      hostsOf(zone, [
        finding('WEB01', { fqdn: 'web-eu-0012.example.com' }),
        finding('10.30.0.20'),
        finding('unknown', { ipAddrs: ['10.30.0.12'] }),
        finding('192.168.1.10'),
        finding('kiosk', { ipAddrs: ['192.168.1.10'] }),
        finding('nowhere', { ipAddrs: ['10.99.0.1'] }),
      ]),
    ).toEqual(['1 by fqdn', '2 by ip', '1 by ip', 'duplicate_host', '3 by hostname', 'unknown_host']);
  });

  it('narrows a name two devices share by the row’s address', () => {
    const twins = [
      device(5, 'build', { ipAddrsPrivate: ['10.1.0.5'] }),
      device(6, 'build', { ipAddrsPrivate: ['10.2.0.6'] }),
    ];
    expect(hostsOf(twins, [finding('build'), finding('build', { ipAddrs: ['10.2.0.6'] })])).toEqual([
      'duplicate_host',
      '6 by hostname',
    ]);
  });
});

describe('matchBatch: remediations', () => {
  const smb1 = { id: 'win-smb1-disabled', name: 'Disable SMBv1', osFamily: 'windows', cves: ['CVE-2017-0144'] };
  const devices = [device(1, 'srv', { osFamily: 'windows' }), device(2, 'web'), device(3, 'db')];
  const patches = [
    { deviceId: 2, name: 'openssl', severity: 'high', cves: ['CVE-2024-5535'] },
    { deviceId: 2, name: 'libssl3', severity: 'critical', cves: ['CVE-2024-5535'] },
    { deviceId: 3, name: 'openssl', severity: 'high', cves: ['CVE-2024-5535'] },
  ];

  it('prefers a pending patch, then a worklet for the device’s OS, and names the rest', () => {
    const result = matchBatch({
      devices,
      patches,
      worklets: [smb1],
      findings: [
        finding('srv', { cve: 'CVE-2017-0144', severity: 'critical' }),
        finding('web', { cve: 'CVE-2024-5535', severity: 'medium' }),
        finding('db', { cve: 'CVE-2024-5535', severity: 'low' }),
        finding('web', { cve: 'CVE-2017-0144' }),
        finding('srv', { cve: 'CVE-2024-5535' }),
        finding('db', { cve: 'CVE-2023-44487' }),
      ],
    });
    expect(result.matches.map((m) => m.issue ?? m.solutionKey?.replace('\u0000', ':'))).toEqual([
      'patch-with-worklet:win-smb1-disabled',
      'patch-now:libssl3',
      'patch-now:openssl',
      'unsupported_host',
      'cve_not_applicable',
      'unknown_cve',
    ]);
    expect(byTitle(result.solutions).map((s) => [s.title, s.kind, s.deviceIds, s.cves, s.severity])).toEqual([
      ['Disable SMBv1', 'patch-with-worklet', [1], ['CVE-2017-0144'], 'critical'],
      ['libssl3', 'patch-now', [2], ['CVE-2024-5535'], 'medium'],
      ['openssl', 'patch-now', [2, 3], ['CVE-2024-5535'], 'medium'],
    ]);
    expect(result.impactedDeviceCount).toBe(3);
    expect(result.statistics).toEqual({
      findings: 6,
      vulnerabilities: 3,
      issues: { duplicate_host: 0, unknown_host: 0, unknown_cve: 1, cve_not_applicable: 1, unsupported_host: 1 },
      solutions: {
        'patch-now': { count: 2, device_count: 2, vulnerability_count: 1 },
        'patch-with-worklet': { count: 1, device_count: 1, vulnerability_count: 1 },
      },
    });
  });

  it('gives a solution its patch’s severity when the scanner gave none', () => {
    const result = matchBatch({ devices, patches, worklets: [], findings: [finding('web', { severity: 'none' })] });
    expect(byTitle(result.solutions).map((s) => [s.title, s.severity])).toEqual([
      ['libssl3', 'critical'],
      ['openssl', 'high'],
    ]);
  });

  it('makes one solution per fix, each device keeping the exact versions it reported', () => {
    const zone = [device(1, 'win-a', { osFamily: 'windows' }), device(2, 'win-b', { osFamily: 'windows' })];
    const cu = (deviceId: number, kb: string) => ({
      deviceId,
      name: `2026-11 Cumulative Update for Windows 11 for x64-based Systems (${kb})`,
      severity: 'critical',
      cves: ['CVE-2026-21001', 'CVE-2026-21002'],
    });
    const result = matchBatch({
      devices: zone,
      patches: [cu(1, 'KB5046617'), cu(2, 'KB5046633'), { ...openssl(2), cves: ['CVE-2026-21002'] }],
      worklets: [],
      findings: [
        finding('win-a', { cve: 'CVE-2026-21001' }),
        finding('win-b', { cve: 'CVE-2026-21001' }),
        finding('win-b', { cve: 'CVE-2026-21002' }),
      ],
    });
    expect(byTitle(result.solutions).map((s) => [s.title, s.deviceIds, s.cves, s.devicePatches])).toEqual([
      [
        '2026-11 Cumulative Update for Windows 11 for x64-based Systems',
        [1, 2],
        ['CVE-2026-21001', 'CVE-2026-21002'],
        {
          '1': ['2026-11 Cumulative Update for Windows 11 for x64-based Systems (KB5046617)'],
          '2': ['2026-11 Cumulative Update for Windows 11 for x64-based Systems (KB5046633)'],
        },
      ],
      ['openssl', [2], ['CVE-2026-21002'], { '2': ['openssl'] }],
    ]);
    expect(result.statistics.solutions['patch-now'].count).toBe(2);
  });
});
