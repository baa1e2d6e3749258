import { describe, expect, it } from 'vitest';
import { mapColumns, normalizeHostname, osFamilyOf, readCsv, splitTags } from './host-imports.parse';
import { isSameHost } from './host-imports.service';

describe('reading another tool’s host export', () => {
  it('takes the most specific host name column of an Active Directory export', () => {
    const { index, ignored } = mapColumns(['Name', 'DNSHostName', 'IPv4Address', 'OperatingSystem', 'Enabled']);
    expect(index).toEqual({ hostname: 1, ip: 2, os: 3 });
    // `Name` is not read once DNSHostName is: it is listed as ignored, as `Enabled` is.
    expect(ignored).toEqual(['Name', 'Enabled']);
  });

  it('maps the OS texts of common tools to a family, and leaves others empty', () => {
    expect(
      [
        'Windows Server 2022 Datacenter',
        'Microsoft Windows 11 Pro',
        'win10',
        'macOS 15.1',
        'Mac OS X 10.15',
        'Darwin',
        'Ubuntu 24.04 LTS',
        'Red Hat Enterprise Linux 9',
        'CentOS Stream',
        'linux',
        'Cisco IOS',
        '',
      ].map(osFamilyOf),
    ).toEqual(['windows', 'windows', 'windows', 'mac', 'mac', 'mac', 'linux', 'linux', 'linux', 'linux', null, null]);
  });

  it('lowercases host names, drops the root dot, and refuses what DNS and NetBIOS do not allow', () => {
    expect(normalizeHostname(' WEB01.Corp.Example. ')).toBe('web01.corp.example');
    expect(normalizeHostname('FIN_PC-7')).toBe('fin_pc-7');
    for (const bad of ['', 'two words', '=cmd|calc', 'a..b', '-lead', `${'a'.repeat(64)}.example`]) {
      expect(normalizeHostname(bad)).toBeNull();
    }
  });

  it('splits tags on ; and |, once each whatever the case', () => {
    expect(splitTags(' web ;prod| Web |;')).toEqual(['web', 'prod']);
  });

  it('matches a short name with an FQDN, but not two FQDNs of different domains', () => {
    expect(isSameHost('web01', 'web01.corp.example')).toBe(true);
    expect(isSameHost('web01.corp.example', 'web01')).toBe(true);
    expect(isSameHost('web01.corp.example', 'web01.branch.example')).toBe(false);
    expect(isSameHost('web01', 'web011')).toBe(false);
  });

  it('reads tab-separated files and refuses text that is not UTF-8', () => {
    const { headers, records } = readCsv(Buffer.from('hostname\tos\nweb01\tlinux\n'));
    expect(headers).toEqual(['hostname', 'os']);
    expect(records).toEqual([{ line: 2, cells: ['web01', 'linux'] }]);
    expect(() => readCsv(Buffer.from([0x68, 0x0a, 0xe9, 0x74, 0xe9, 0x0a]))).toThrow(/not UTF-8/);
  });
});
