/**
 * The Windows adapter: PowerShell with CIM, the registry's uninstall keys, the Windows Update
 * Agent COM API, and winget for named packages. Scripts go through -EncodedCommand so that
 * quoting never depends on cmd.exe.
 */
import os from 'node:os';
import { capture, runProcess, type ProcessRunner, type ProcessSpec } from '../jobs/process.js';
import type { DeviceStatus, Disk, Patch, SoftwareItem, SystemInfo } from '../protocol.js';
import { createWindowsNotifier } from '../notify/windows.js';
import { existingVncServer } from '../remote/tunnel.js';
import { AGENT_VERSION } from '../version.js';
import { fallbackMachineId, ipAddrs, nics, timezone } from './common.js';
import { assertSafeToken, type PackageAction, type Platform } from './platform.js';
import { parseUninstallEntries, parseWindowsSystem, parseWuaUpdates } from './windows.parsers.js';

/** `powershell.exe -EncodedCommand` takes base64 of UTF-16LE. */
export function powershell(script: string): ProcessSpec {
  const encoded = Buffer.from(`$ProgressPreference='SilentlyContinue'\n${script}`, 'utf16le').toString('base64');
  return {
    command: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encoded],
  };
}

export const SOFTWARE_SCRIPT = `
$keys = @(
  @{ p = 'HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'; a = 'x64' },
  @{ p = 'HKLM:\\Software\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'; a = 'x86' },
  @{ p = 'HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'; a = $null }
)
$keys | ForEach-Object { $a = $_.a; Get-ItemProperty $_.p -ErrorAction SilentlyContinue |
  Where-Object { $_.DisplayName -and -not $_.SystemComponent } |
  Select-Object DisplayName, DisplayVersion, Publisher, @{ n = 'Arch'; e = { $a } } } | ConvertTo-Json -Compress`;

export const WUA_SEARCH_SCRIPT = `
$session = New-Object -ComObject Microsoft.Update.Session
$result = $session.CreateUpdateSearcher().Search("IsInstalled=0 and IsHidden=0 and Type='Software'")
@($result.Updates | ForEach-Object { [pscustomobject]@{
  Title = $_.Title; KB = ($_.KBArticleIDs -join ','); Severity = $_.MsrcSeverity; CVEs = @($_.CveIDs)
  Reboot = [bool]$_.InstallationBehavior.RebootBehavior; Categories = @($_.Categories | ForEach-Object { $_.Name })
  Published = $_.LastDeploymentChangeTime.ToUniversalTime().ToString('o') } }) | ConvertTo-Json -Compress -Depth 4`;

export const SYSTEM_SCRIPT = `
$os = Get-CimInstance Win32_OperatingSystem; $cs = Get-CimInstance Win32_ComputerSystem
$cpu = @(Get-CimInstance Win32_Processor)[0]; $bios = Get-CimInstance Win32_BIOS
[pscustomobject]@{
  Caption = $os.Caption; Version = $os.Version; OSArchitecture = $os.OSArchitecture
  LastBootUpTime = $os.LastBootUpTime.ToUniversalTime().ToString('o')
  Manufacturer = $cs.Manufacturer; Model = $cs.Model; TotalPhysicalMemory = $cs.TotalPhysicalMemory
  UserName = $cs.UserName; Domain = $cs.Domain; Serial = $bios.SerialNumber
  Cpu = $cpu.Name; Cores = $cs.NumberOfLogicalProcessors
  MachineGuid = (Get-ItemProperty 'HKLM:\\SOFTWARE\\Microsoft\\Cryptography').MachineGuid
  RebootPending = (Test-Path 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\WindowsUpdate\\Auto Update\\RebootRequired')
  Disks = @(Get-CimInstance Win32_DiskDrive | ForEach-Object { [pscustomobject]@{ Model = $_.Model; Size = $_.Size; MediaType = $_.MediaType } })
} | ConvertTo-Json -Compress -Depth 4`;

/** Downloads and installs updates through the WUA; `$filter` picks them by KB or title. */
export function wuaInstallScript(kbsOrTitles: string[] | null, simulate: boolean): string {
  const wanted = kbsOrTitles ? `@(${kbsOrTitles.map((n) => `'${n.replace(/'/g, "''")}'`).join(',')})` : '$null';
  return `
$wanted = ${wanted}
$session = New-Object -ComObject Microsoft.Update.Session
$found = $session.CreateUpdateSearcher().Search("IsInstalled=0 and IsHidden=0 and Type='Software'").Updates
$todo = New-Object -ComObject Microsoft.Update.UpdateColl
foreach ($u in $found) {
  $kb = 'KB' + ($u.KBArticleIDs -join ',')
  if ($wanted -eq $null -or $wanted -contains $u.Title -or $wanted -contains $kb) { if (-not $u.EulaAccepted) { $u.AcceptEula() }; [void]$todo.Add($u) }
}
foreach ($u in $todo) { Write-Output ('${simulate ? 'Would install' : 'Installing'}: ' + $u.Title) }
if (${simulate ? '$true' : '$false'} -or $todo.Count -eq 0) { exit 0 }
$dl = $session.CreateUpdateDownloader(); $dl.Updates = $todo; [void]$dl.Download()
$inst = $session.CreateUpdateInstaller(); $inst.Updates = $todo; $r = $inst.Install()
Write-Output ('ResultCode: ' + $r.ResultCode + ' RebootRequired: ' + $r.RebootRequired)
if ($r.ResultCode -ne 2) { exit 1 }`;
}

export function windowsPackageCommand(action: PackageAction, simulate: boolean): ProcessSpec {
  const winget = ['--silent', '--accept-package-agreements', '--accept-source-agreements', '--disable-interactivity'];
  switch (action.type) {
    case 'install_all':
      return powershell(wuaInstallScript(null, simulate));
    case 'install_updates':
      return powershell(wuaInstallScript(action.names, simulate));
    case 'install_package': {
      const id = assertSafeToken(action.name, 'package');
      const version = action.version ? ['--version', assertSafeToken(action.version, 'version')] : [];
      return simulate
        ? { command: 'winget', args: ['show', '--id', id, '--exact', ...version] }
        : { command: 'winget', args: ['install', '--id', id, '--exact', ...version, ...winget] };
    }
    case 'remove_package': {
      const id = assertSafeToken(action.name, 'package');
      return simulate
        ? { command: 'winget', args: ['list', '--id', id, '--exact'] }
        : { command: 'winget', args: ['uninstall', '--id', id, '--exact', '--silent', '--disable-interactivity'] };
    }
  }
}

export function createWindowsPlatform(run: ProcessRunner = runProcess): Platform {
  const ps = async (script: string, timeoutMs = 120_000) => {
    const spec = powershell(script);
    return (await capture(run, spec.command, spec.args, timeoutMs))?.stdout ?? '';
  };
  const sys = async () => {
    try {
      return parseWindowsSystem(await ps(SYSTEM_SCRIPT));
    } catch {
      return {};
    }
  };

  return {
    family: 'windows',
    notifier: createWindowsNotifier({ run }),
    // Windows has no VNC server of its own: one installed beside the agent (TightVNC, UltraVNC).
    remoteDesktop: () => existingVncServer(5900, 'A VNC server (TightVNC, UltraVNC)'),

    async machineId() {
      return (await sys()).MachineGuid ?? fallbackMachineId();
    },

    async system(): Promise<SystemInfo> {
      const s = await sys();
      const cpus = os.cpus();
      const disks: Disk[] = (Array.isArray(s.Disks) ? s.Disks : s.Disks ? [s.Disks] : []).map((d, i) => ({
        name: d.Model ?? `disk${i}`,
        size_bytes: Number(d.Size ?? 0),
        type: d.MediaType ?? 'disk',
      }));
      return {
        hostname: os.hostname(),
        fqdn: s.Domain && s.Domain !== 'WORKGROUP' ? `${os.hostname()}.${s.Domain}` : os.hostname(),
        os_family: 'windows',
        os_name: s.Caption ?? 'Windows',
        os_version: s.Version ?? os.release(),
        arch: s.OSArchitecture ?? os.arch(),
        kernel: os.release(),
        cpu: s.Cpu ?? cpus[0]?.model ?? 'unknown',
        cpu_cores: s.Cores ?? cpus.length,
        ram_bytes: s.TotalPhysicalMemory ?? os.totalmem(),
        disks,
        nics: nics(),
        model: s.Model ?? null,
        serial: s.Serial ?? null,
        vendor: s.Manufacturer ?? null,
        timezone: timezone(),
        agent_version: AGENT_VERSION,
        uptime_s: Math.round(os.uptime()),
        logged_in_user: s.UserName ?? null,
      };
    },

    async status(): Promise<DeviceStatus> {
      const s = await sys();
      return {
        uptime_s: Math.round(os.uptime()),
        logged_in_user: s.UserName ?? null,
        needs_reboot: Boolean(s.RebootPending),
        ...ipAddrs(),
      };
    },

    async software(): Promise<SoftwareItem[]> {
      return parseUninstallEntries(await ps(SOFTWARE_SCRIPT));
    },

    async patches(): Promise<Patch[]> {
      return parseWuaUpdates(await ps(WUA_SEARCH_SCRIPT, 900_000));
    },

    packageCommand(action, { simulate }) {
      return windowsPackageCommand(action, simulate);
    },

    scriptCommand(language, script) {
      if (language === 'powershell') return powershell(script);
      return { command: 'bash.exe', args: ['-s'], input: script };
    },

    rebootCommand(delayS) {
      return {
        command: 'shutdown.exe',
        args: ['/r', '/t', String(Math.max(0, Math.round(delayS))), '/c', 'Patchwell'],
      };
    },
  };
}
