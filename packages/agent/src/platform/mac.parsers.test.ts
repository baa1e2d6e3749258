import { describe, expect, it } from 'vitest';
import type { ProcessRunner } from '../jobs/process.js';
import { exitedOk, fixture } from './fixtures/fixtures.js';
import {
  parsePkgutilInfo,
  parseSoftwareUpdateList,
  parseSwVers,
  parseSystemProfilerApps,
  parseSystemProfilerHardware,
} from './mac.parsers.js';
import { createMacPlatform, macPackageCommand } from './mac.js';

describe('parseSoftwareUpdateList', () => {
  it('reads the labels, versions and restart flags of macOS 10.15+', () => {
    const patches = parseSoftwareUpdateList(fixture('softwareupdate-l.txt'));
    expect(patches).toHaveLength(3);
    expect(patches[0]).toMatchObject({
      name: 'macOS Sequoia 15.1.1-24B91',
      version: '15.1.1',
      reboot_required: true,
      severity: 'high',
      source: 'softwareupdate:macOS Sequoia 15.1.1',
    });
    expect(patches[1]).toMatchObject({
      name: 'Safari18.1.1VenturaAuto-18.1.1',
      version: '18.1.1',
      reboot_required: false,
    });
    expect(patches[2]).toMatchObject({ version: '16.1', severity: 'low' });
  });

  it('reads the older format', () => {
    const patches = parseSoftwareUpdateList(fixture('softwareupdate-l-legacy.txt'));
    expect(patches).toHaveLength(2);
    expect(patches[0]).toMatchObject({ name: 'Safari11.0.3Sierra-11.0.3', version: '11.0.3', reboot_required: false });
    expect(patches[1]!.reboot_required).toBe(true);
  });

  it('finds nothing when the machine is up to date', () => {
    expect(
      parseSoftwareUpdateList('Software Update Tool\n\nFinding available software\nNo new software available.\n'),
    ).toEqual([]);
  });
});

describe('system_profiler, pkgutil and sw_vers', () => {
  it('reads applications and skips entries without a name', () => {
    const apps = parseSystemProfilerApps(fixture('system_profiler-apps.json'));
    expect(apps.map((a) => a.name)).toEqual(['Safari', 'Google Chrome', 'zoom.us']);
    expect(apps[0]).toEqual({ name: 'Safari', version: '18.1', source: 'app:apple', arch: 'arm_i64' });
  });

  it('reads pkgutil --pkg-info blocks', () => {
    expect(parsePkgutilInfo(fixture('pkgutil-info.txt'))).toEqual([
      { name: 'com.microsoft.package.Microsoft_Word.app', version: '16.91.24111020', source: 'pkgutil', arch: null },
      { name: 'us.zoom.pkg.videomeeting', version: '6.2.11.43613', source: 'pkgutil', arch: null },
    ]);
  });

  it('reads the hardware overview and sw_vers', () => {
    expect(parseSystemProfilerHardware(fixture('system_profiler-hardware.json'))).toEqual({
      model: 'Mac15,6',
      serial: 'C02XK1ABCD12',
      uuid: '5B8A1F0C-3E2D-4C7B-9A61-2F0E8D4C1B7A',
      cpu: 'Apple M3 Pro',
      memoryBytes: 18 * 2 ** 30,
    });
    expect(parseSwVers(fixture('sw_vers.txt'))).toMatchObject({ ProductName: 'macOS', ProductVersion: '15.1' });
  });
});

describe('the macOS adapter', () => {
  const outputs: Record<string, string> = {
    'system_profiler SPApplicationsDataType -json': fixture('system_profiler-apps.json'),
    'system_profiler SPHardwareDataType -json': fixture('system_profiler-hardware.json'),
    'softwareupdate -l': fixture('softwareupdate-l.txt'),
    'sw_vers ': fixture('sw_vers.txt'),
  };
  const run: ProcessRunner = async (spec) => {
    const key = `${spec.command.split('/').pop()} ${spec.args.join(' ')}`;
    const stdout = spec.command === '/bin/sh' ? fixture('pkgutil-info.txt') : (outputs[key] ?? '');
    return exitedOk(stdout);
  };
  const mac = createMacPlatform(run);

  it('builds its inventory from the recorded outputs', async () => {
    expect(await mac.machineId()).toBe('5B8A1F0C-3E2D-4C7B-9A61-2F0E8D4C1B7A');
    expect((await mac.software()).map((s) => s.name)).toContain('us.zoom.pkg.videomeeting');
    expect(await mac.patches()).toHaveLength(3);
    expect(await mac.system()).toMatchObject({
      os_family: 'mac',
      os_name: 'macOS 15.1',
      model: 'Mac15,6',
      vendor: 'Apple',
    });
  });

  it('lists instead of installing when simulating', () => {
    expect(macPackageCommand({ type: 'install_all' }, true)).toEqual({
      command: '/usr/sbin/softwareupdate',
      args: ['-l'],
    });
    expect(
      macPackageCommand({ type: 'install_updates', names: ['Safari18.1.1VenturaAuto-18.1.1'] }, false).args,
    ).toEqual(['-i', 'Safari18.1.1VenturaAuto-18.1.1', '--agree-to-license']);
    expect(macPackageCommand({ type: 'install_package', name: 'jq' }, false)).toEqual({
      command: 'brew',
      args: ['install', 'jq'],
    });
  });
});
