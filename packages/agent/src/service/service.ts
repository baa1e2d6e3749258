/**
 * Running the agent as a system service: a systemd unit (Linux), a launchd daemon (macOS) and
 * a scheduled task at startup as SYSTEM (Windows). Everything here is a pure function of the
 * launcher and the state path, so the files are tested for their content; `apply.ts` writes
 * them and runs the commands, and only with `--yes`.
 */

export type ServiceOs = 'linux' | 'mac' | 'windows';

/** How the service starts the agent and what `run` gets. */
export type ServiceSpec = {
  /** The program and its leading arguments: `[node, bundle]`, or `[executable]` for the SEA build. */
  launcher: string[];
  statePath: string;
  /** Passed on to `run`: without it the service only simulates installs (README, "Changes only with"). */
  allowChanges: boolean;
};

/** A file the plan writes, a file it removes, a command it runs (in order: files, then commands). */
export type ServicePlan = {
  os: ServiceOs;
  write: { path: string; content: string; mode: number }[];
  remove: string[];
  commands: { command: string; args: string[]; mayFail?: boolean }[];
};

export const SYSTEMD_UNIT_NAME = 'patchwell-agent.service';
export const SYSTEMD_UNIT_PATH = `/etc/systemd/system/${SYSTEMD_UNIT_NAME}`;
export const LAUNCHD_LABEL = 'com.patchwell.agent';
export const LAUNCHD_PLIST_PATH = `/Library/LaunchDaemons/${LAUNCHD_LABEL}.plist`;
export const WINDOWS_TASK_NAME = 'Patchwell Agent';
/** Where the install instructions put the agent on Linux and macOS. */
export const UNIX_INSTALL_DIR = '/opt/patchwell';
export const UNIX_STATE_PATH = '/var/lib/patchwell-agent/state.json';
/** `%ProgramData%\Patchwell`: SYSTEM's home is not the administrator's, so the state path is explicit. */
export const WINDOWS_INSTALL_DIR = 'C:\\ProgramData\\Patchwell';
export const WINDOWS_STATE_PATH = `${WINDOWS_INSTALL_DIR}\\state.json`;
/** Exit code of `run` when the server removed the device (cli.ts): restarting would only repeat it. */
export const EXIT_REMOVED = 3;

/** The command line of the service: the launcher, then `run` with the state file. */
export function serviceArgs(spec: ServiceSpec): string[] {
  return [...spec.launcher, 'run', '--state', spec.statePath, ...(spec.allowChanges ? ['--allow-changes'] : [])];
}

/** One ExecStart word: systemd expands `%` specifiers and `$` variables, and splits on blanks. */
export function systemdQuote(word: string): string {
  const escaped = word.replaceAll('%', '%%').replaceAll('$', '$$$$');
  if (/^[A-Za-z0-9_@%$+=:,./-]+$/.test(escaped) && escaped !== '') return escaped;
  return `"${escaped.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * The systemd unit. The hardening stops short of anything a package manager needs as root:
 * no ProtectSystem/ProtectHome (apt writes /usr, /etc, /boot, /root), no ProtectKernel*
 * (kernel packages run depmod, procps runs sysctl), no RestrictSUIDSGID (sudo's upgrade sets
 * its setuid bit), no MemoryDenyWriteExecute (V8 needs it). KillMode=process lets a running
 * apt or dpkg finish when the agent is restarted instead of leaving a half-configured system.
 */
export function systemdUnit(spec: ServiceSpec): string {
  return `[Unit]
Description=Patchwell endpoint agent
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
ExecStart=${serviceArgs(spec).map(systemdQuote).join(' ')}
Restart=always
RestartSec=10
RestartPreventExitStatus=${EXIT_REMOVED}
KillMode=process
TimeoutStopSec=30
StateDirectory=patchwell-agent
StateDirectoryMode=0700
UMask=0077
PrivateTmp=yes
ProtectControlGroups=yes
ProtectClock=yes
RestrictRealtime=yes
LockPersonality=yes
Environment=NODE_ENV=production

[Install]
WantedBy=multi-user.target
`;
}

function xmlEscape(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** The launchd daemon: started at boot, restarted when it exits, logs under /var/log. */
export function launchdPlist(spec: ServiceSpec): string {
  const args = serviceArgs(spec)
    .map((a) => `    <string>${xmlEscape(a)}</string>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>ThrottleInterval</key>
  <integer>10</integer>
  <key>Umask</key>
  <integer>63</integer>
  <key>StandardOutPath</key>
  <string>/var/log/patchwell-agent.log</string>
  <key>StandardErrorPath</key>
  <string>/var/log/patchwell-agent.log</string>
</dict>
</plist>
`;
}

/** A PowerShell single-quoted string (no expansion; a quote is doubled). */
export function psQuote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** One argument on a Windows command line (CommandLineToArgvW rules, enough for paths and flags). */
export function windowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/**
 * Only SYSTEM and Administrators may read the state (it holds the token and the zone key); the
 * SIDs avoid the localised group names. Also run by the install instructions before enrolling.
 */
export function windowsLockDownScript(dir: string): string {
  return `New-Item -ItemType Directory -Force -Path ${psQuote(dir)} | Out-Null
icacls ${psQuote(dir)} /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null`;
}

/**
 * Windows: a scheduled task at startup as SYSTEM, restarted after failures. Not a service made
 * with New-Service or sc.exe: node.exe does not answer the Service Control Manager, which
 * kills such a service after 30 s (error 1053), and a wrapper (WinSW, NSSM) would be one more
 * binary to ship.
 */
export function windowsInstallScript(spec: ServiceSpec): string {
  const [program = 'node.exe', ...rest] = serviceArgs(spec);
  const stateDir = spec.statePath.replace(/[\\/][^\\/]*$/, '');
  return `$ErrorActionPreference = 'Stop'
${windowsLockDownScript(stateDir)}
$action = New-ScheduledTaskAction -Execute ${psQuote(program)} -Argument ${psQuote(rest.map(windowsArg).join(' '))}
$trigger = New-ScheduledTaskTrigger -AtStartup
$principal = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
$settings = New-ScheduledTaskSettingsSet -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries -StartWhenAvailable -ExecutionTimeLimit ([TimeSpan]::Zero) -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -MultipleInstances IgnoreNew
Register-ScheduledTask -TaskName ${psQuote(WINDOWS_TASK_NAME)} -Action $action -Trigger $trigger -Principal $principal -Settings $settings -Force | Out-Null
Start-ScheduledTask -TaskName ${psQuote(WINDOWS_TASK_NAME)}
`;
}

export function windowsUninstallScript(): string {
  return `$ErrorActionPreference = 'Stop'
Stop-ScheduledTask -TaskName ${psQuote(WINDOWS_TASK_NAME)} -ErrorAction SilentlyContinue
Unregister-ScheduledTask -TaskName ${psQuote(WINDOWS_TASK_NAME)} -Confirm:$false
`;
}

/** `powershell.exe -EncodedCommand` takes base64 of UTF-16LE. */
function powershellCommand(script: string): ServicePlan['commands'][number] {
  return {
    command: 'powershell.exe',
    args: [
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-EncodedCommand',
      Buffer.from(script, 'utf16le').toString('base64'),
    ],
  };
}

export function installPlan(os: ServiceOs, spec: ServiceSpec): ServicePlan {
  switch (os) {
    case 'linux':
      return {
        os,
        write: [{ path: SYSTEMD_UNIT_PATH, content: systemdUnit(spec), mode: 0o644 }],
        remove: [],
        commands: [
          { command: 'systemctl', args: ['daemon-reload'] },
          // restart, not start: a reinstall picks up the new unit and launcher.
          { command: 'systemctl', args: ['enable', SYSTEMD_UNIT_NAME] },
          { command: 'systemctl', args: ['restart', SYSTEMD_UNIT_NAME] },
        ],
      };
    case 'mac':
      return {
        os,
        write: [{ path: LAUNCHD_PLIST_PATH, content: launchdPlist(spec), mode: 0o644 }],
        remove: [],
        commands: [
          // A loaded daemon keeps its old definition until it is booted out.
          { command: 'launchctl', args: ['bootout', `system/${LAUNCHD_LABEL}`], mayFail: true },
          { command: 'launchctl', args: ['bootstrap', 'system', LAUNCHD_PLIST_PATH] },
        ],
      };
    case 'windows':
      return { os, write: [], remove: [], commands: [powershellCommand(windowsInstallScript(spec))] };
  }
}

export function uninstallPlan(os: ServiceOs): ServicePlan {
  switch (os) {
    case 'linux':
      return {
        os,
        write: [],
        remove: [SYSTEMD_UNIT_PATH],
        commands: [
          { command: 'systemctl', args: ['disable', '--now', SYSTEMD_UNIT_NAME], mayFail: true },
          { command: 'systemctl', args: ['daemon-reload'] },
        ],
      };
    case 'mac':
      return {
        os,
        write: [],
        remove: [LAUNCHD_PLIST_PATH],
        commands: [{ command: 'launchctl', args: ['bootout', `system/${LAUNCHD_LABEL}`], mayFail: true }],
      };
    case 'windows':
      return { os, write: [], remove: [], commands: [powershellCommand(windowsUninstallScript())] };
  }
}

/** What the plan would do, for the dry run (and the log of a real one). */
export function describePlan(plan: ServicePlan, scripts: { windows?: string } = {}): string {
  const lines: string[] = [];
  for (const file of plan.write) {
    lines.push(`write ${file.path} (mode ${file.mode.toString(8)}):`, file.content.trimEnd(), '');
  }
  for (const file of plan.remove) lines.push(`remove ${file}`);
  for (const c of plan.commands) {
    if (c.command === 'powershell.exe' && scripts.windows) {
      lines.push('run in PowerShell as Administrator:', scripts.windows.trimEnd());
    } else lines.push(`run ${[c.command, ...c.args].join(' ')}${c.mayFail ? '  (may fail)' : ''}`);
  }
  return lines.join('\n');
}

/**
 * A root service must not run a file that another user can replace: that user would become
 * root. Returns the reason, or null when the owner is root and nobody else may write it.
 */
export function unsafeLauncherReason(file: string, stat: { uid: number; mode: number }): string | null {
  if (stat.uid !== 0) return `${file} is not owned by root`;
  if (stat.mode & 0o022) return `${file} is writable by group or others`;
  return null;
}
