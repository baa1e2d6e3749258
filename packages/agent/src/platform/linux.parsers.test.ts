import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/fixtures.js';
import {
  parseAptListUpgradable,
  parseAptSimulation,
  parseAptUpgradeSimulation,
  parseDnfCheckUpdate,
  parseDpkgQuery,
  parseLsblk,
  parseOsRelease,
  parseRpmQuery,
} from './linux.parsers.js';
import { linuxPackageCommand } from './linux.js';

describe('parseDpkgQuery', () => {
  it('reads name, version and architecture and skips packages without a version', () => {
    const rows = parseDpkgQuery(fixture('dpkg-query.txt'));
    expect(rows.length).toBe(40);
    expect(rows.every((r) => r.name && r.version && r.source === 'dpkg')).toBe(true);
    expect(rows.find((r) => r.name === 'libfoo-removed')).toBeUndefined();
    expect(parseDpkgQuery('bash\t5.2.15-2+b8\tamd64\n')).toEqual([
      { name: 'bash', version: '5.2.15-2+b8', source: 'dpkg', arch: 'amd64' },
    ]);
  });
});

describe('parseRpmQuery', () => {
  it('reads rpm -qa --qf rows', () => {
    expect(parseRpmQuery('openssl\t3.0.7-27.el9\tx86_64\n\n')).toEqual([
      { name: 'openssl', version: '3.0.7-27.el9', source: 'rpm', arch: 'x86_64' },
    ]);
  });
});

describe('parseAptUpgradeSimulation', () => {
  it('turns the Inst lines of apt-get -s upgrade into patches', () => {
    const patches = parseAptUpgradeSimulation(fixture('apt-get-s-upgrade.txt'));
    const insts = fixture('apt-get-s-upgrade.txt')
      .split('\n')
      .filter((l) => l.startsWith('Inst '));
    expect(patches).toHaveLength(insts.length);
    const bash = patches.find((p) => p.name === 'bash');
    expect(bash).toMatchObject({ current_version: '5.2.15-2+b8', version: '5.2.15-2+b13', severity: 'unknown' });
  });

  it('marks updates from a security pocket high and names that pocket as the source', () => {
    const [p] = parseAptUpgradeSimulation(
      'Inst libgcrypt20 [1.10.1-3] (1.10.1-3+deb12u1 Debian:12.15/oldstable, Debian-Security:12/oldstable-security [amd64])\n',
    );
    expect(p).toMatchObject({
      name: 'libgcrypt20',
      current_version: '1.10.1-3',
      version: '1.10.1-3+deb12u1',
      severity: 'high',
      source: 'apt:Debian-Security:12/oldstable-security',
    });
  });

  it('flags kernel updates as needing a reboot and ignores Conf lines', () => {
    const out = parseAptUpgradeSimulation(
      'Inst linux-image-amd64 [6.1.0-25] (6.1.0-26 Debian:12/stable [amd64])\nConf linux-image-amd64 (6.1.0-26 Debian:12/stable [amd64])\n',
    );
    expect(out).toHaveLength(1);
    expect(out[0]!.reboot_required).toBe(true);
  });
});

describe('parseAptSimulation', () => {
  it('reads new installs and removals', () => {
    expect(parseAptSimulation('Inst newpkg (1.0-1 Debian:12/stable [all])\nRemv oldpkg [2.1-3]\n')).toEqual([
      {
        action: 'install',
        name: 'newpkg',
        current_version: null,
        version: '1.0-1',
        origin: 'Debian:12/stable',
        arch: 'all',
      },
      { action: 'remove', name: 'oldpkg', current_version: '2.1-3', version: null, origin: '', arch: null },
    ]);
  });
});

describe('parseAptListUpgradable', () => {
  it('reads apt list --upgradable and skips the Listing... header', () => {
    const patches = parseAptListUpgradable(fixture('apt-list-upgradable.txt'));
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.find((p) => p.name === 'bash')).toMatchObject({
      current_version: '5.2.15-2+b8',
      version: '5.2.15-2+b13',
      source: 'apt:oldstable',
    });
    expect(patches.find((p) => p.name === 'apt')).toMatchObject({ severity: 'high' });
  });
});

describe('parseDnfCheckUpdate', () => {
  it('reads name.arch, version and repository, stopping at obsoletes', () => {
    const patches = parseDnfCheckUpdate(fixture('dnf-check-update.txt'), new Map([['openssl', '1:3.0.7-27.el9']]));
    expect(patches.map((p) => p.name)).toEqual(['bind-libs', 'kernel', 'openssl', 'python3-requests']);
    expect(patches.find((p) => p.name === 'openssl')).toMatchObject({
      current_version: '1:3.0.7-27.el9',
      version: '1:3.0.7-28.el9_4',
      source: 'dnf:baseos',
    });
    expect(patches.find((p) => p.name === 'kernel')!.reboot_required).toBe(true);
    expect(patches.find((p) => p.name === 'python3-requests')!.severity).toBe('high');
  });
});

describe('parseOsRelease', () => {
  it('unquotes values', () => {
    expect(parseOsRelease('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\nID=debian\n')).toEqual({
      PRETTY_NAME: 'Debian GNU/Linux 12 (bookworm)',
      VERSION_ID: '12',
      ID: 'debian',
    });
  });
});

describe('parseLsblk', () => {
  it('keeps whole disks with a size and leaves zram and loop devices out', () => {
    const json = JSON.stringify({
      blockdevices: [
        { name: 'zram0', size: 0, type: 'disk' },
        { name: 'vda', size: 274877906944, type: 'disk' },
        { name: 'loop0', size: 1000, type: 'loop' },
      ],
    });
    expect(parseLsblk(json)).toEqual([{ name: 'vda', size_bytes: 274877906944, type: 'disk' }]);
  });
});

describe('linuxPackageCommand', () => {
  it('simulates with apt-get -s unless changes are allowed', () => {
    expect(linuxPackageCommand({ type: 'install_updates', names: ['bash'] }, true).args).toEqual([
      '-s',
      '-o',
      'Debug::NoLocking=1',
      'install',
      '--only-upgrade',
      'bash',
    ]);
    expect(linuxPackageCommand({ type: 'install_all' }, false).args).toContain('-y');
    expect(linuxPackageCommand({ type: 'install_package', name: 'curl', version: '7.88.1' }, true).args).toContain(
      'curl=7.88.1',
    );
    expect(linuxPackageCommand({ type: 'remove_package', name: 'htop' }, true, {}, 'dnf')).toMatchObject({
      command: 'dnf',
      args: ['--assumeno', 'remove', 'htop'],
    });
  });

  it('refuses names that could be read as options', () => {
    expect(() => linuxPackageCommand({ type: 'remove_package', name: '--purge' }, true)).toThrow(/Invalid package/);
    expect(() => linuxPackageCommand({ type: 'install_updates', names: ['a; rm -rf /'] }, true)).toThrow();
  });
});
