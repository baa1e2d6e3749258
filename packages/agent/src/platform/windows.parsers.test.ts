import { describe, expect, it } from 'vitest';
import type { ProcessRunner } from '../jobs/process.js';
import { exitedOk, fixture } from './fixtures/fixtures.js';
import { asArray, parseUninstallEntries, parseWindowsSystem, parseWuaUpdates } from './windows.parsers.js';
import { createWindowsPlatform, powershell, windowsPackageCommand, wuaInstallScript } from './windows.js';

describe('PowerShell JSON', () => {
  it('treats one object, an array and no output alike', () => {
    expect(asArray('')).toEqual([]);
    expect(asArray('{"a":1}')).toEqual([{ a: 1 }]);
    expect(asArray('\uFEFF[{"a":1},{"a":2}]')).toHaveLength(2);
  });

  it('reads the registry uninstall keys, de-duplicated, without nameless entries', () => {
    const rows = parseUninstallEntries(fixture('windows-uninstall.json'));
    expect(rows.map((r) => r.name)).toEqual([
      'Google Chrome',
      '7-Zip 24.08 (x64)',
      'Microsoft Visual C++ 2015-2022 Redistributable (x86) - 14.40.33816',
      'Notepad++ (64-bit x64)',
      'Update Helper',
    ]);
    expect(rows[0]).toEqual({
      name: 'Google Chrome',
      version: '131.0.6778.86',
      source: 'registry:Google LLC',
      arch: 'x64',
    });
    expect(rows[4]).toMatchObject({ version: '', source: 'registry' });
  });

  it('maps Windows Update results to patches with KB numbers, MSRC severities and CVEs', () => {
    const patches = parseWuaUpdates(fixture('windows-wua.json'));
    expect(patches).toHaveLength(3);
    expect(patches[0]).toMatchObject({
      kb: 'KB5046617',
      version: 'KB5046617',
      severity: 'critical',
      cves: ['CVE-2024-43451', 'CVE-2024-49039', 'CVE-2024-43639'],
      reboot_required: true,
      source: 'windows_update:Security Updates',
      published_at: '2024-11-12T18:00:00.0000000Z',
    });
    expect(patches[1]).toMatchObject({ kb: 'KB2267602', version: '1.421.1642.0', severity: 'unknown', cves: [] });
    expect(patches[2]).toMatchObject({ severity: 'high', cves: ['CVE-2024-43483'] });
    expect(parseWuaUpdates(fixture('windows-wua-single.json'))).toMatchObject([{ kb: 'KB890830' }]);
  });

  it('reads the system object', () => {
    expect(parseWindowsSystem(fixture('windows-system.json'))).toMatchObject({
      Caption: 'Microsoft Windows 11 Pro',
      MachineGuid: '0d6a7b52-3c1f-4a8e-9f51-7e2b9c4d1a03',
      RebootPending: true,
    });
  });
});

describe('the Windows adapter', () => {
  const decode = (args: string[]) => Buffer.from(args[args.length - 1]!, 'base64').toString('utf16le');
  const run: ProcessRunner = async (spec) => {
    const script = decode(spec.args);
    const stdout = script.includes('Uninstall')
      ? fixture('windows-uninstall.json')
      : script.includes('CreateUpdateSearcher')
        ? fixture('windows-wua.json')
        : fixture('windows-system.json');
    return exitedOk(stdout);
  };
  const win = createWindowsPlatform(run);

  it('runs PowerShell through -EncodedCommand', () => {
    const spec = powershell('Get-Date');
    expect(spec.command).toBe('powershell.exe');
    expect(spec.args.slice(0, 5)).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
    ]);
    expect(decode(spec.args)).toContain('Get-Date');
  });

  it('builds its inventory from the recorded outputs', async () => {
    expect(await win.machineId()).toBe('0d6a7b52-3c1f-4a8e-9f51-7e2b9c4d1a03');
    expect(await win.software()).toHaveLength(5);
    expect((await win.patches())[0]!.kb).toBe('KB5046617');
    const system = await win.system();
    expect(system).toMatchObject({
      os_family: 'windows',
      os_name: 'Microsoft Windows 11 Pro',
      vendor: 'LENOVO',
      cpu_cores: 12,
    });
    expect(system.disks).toEqual([
      { name: 'SAMSUNG MZVL21T0HCLR-00BL7', size_bytes: 1024209543168, type: 'Fixed hard disk media' },
    ]);
    expect((await win.status()).needs_reboot).toBe(true);
  });

  it('searches without installing when simulating, and quotes names for PowerShell', () => {
    const sim = decode(windowsPackageCommand({ type: 'install_updates', names: ['KB5046617', "it's"] }, true).args);
    expect(sim).toContain("@('KB5046617','it''s')");
    expect(sim).toContain('Would install');
    expect(sim).toContain('if ($true');
    expect(wuaInstallScript(null, false)).toContain('CreateUpdateInstaller');
    expect(windowsPackageCommand({ type: 'install_package', name: 'Git.Git' }, false)).toMatchObject({
      command: 'winget',
      args: expect.arrayContaining(['install', '--id', 'Git.Git', '--silent']) as unknown as string[],
    });
  });
});
