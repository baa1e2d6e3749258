import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../jobs/process.js';
import { applyPlan, launcherProblems } from './apply.js';
import {
  describePlan,
  installPlan,
  launchdPlist,
  LAUNCHD_PLIST_PATH,
  serviceArgs,
  systemdQuote,
  systemdUnit,
  SYSTEMD_UNIT_PATH,
  uninstallPlan,
  unsafeLauncherReason,
  windowsArg,
  windowsInstallScript,
  type ServiceSpec,
} from './service.js';

const bundle = '/opt/patchwell/patchwell-agent.cjs';
const spec: ServiceSpec = {
  launcher: [process.execPath, bundle],
  statePath: '/var/lib/patchwell-agent/state.json',
  allowChanges: false,
};
const tmp = mkdtempSync(path.join(os.tmpdir(), 'patchwell-service-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

type XmlNode = { name: string; children: XmlNode[]; text: string };

/** A launchd property list as plain values (dict, array, string, integer, true/false), read with a real XML parser. */
function readPlist(xml: string): unknown {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#document', children: [], text: '' };
  const stack = [root];
  parser.on('opentag', (tag) => {
    const node = { name: tag.name, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (text) => {
    stack.at(-1)!.text += text;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  const value = (node: XmlNode): unknown => {
    switch (node.name) {
      case 'dict': {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < node.children.length; i += 2) out[node.children[i]!.text] = value(node.children[i + 1]!);
        return out;
      }
      case 'array':
        return node.children.map(value);
      case 'integer':
        return Number(node.text);
      case 'true':
        return true;
      case 'false':
        return false;
      default:
        return node.text;
    }
  };
  const plist = root.children[0]!;
  expect(plist.name).toBe('plist');
  return value(plist.children[0]!);
}

describe('systemd unit', () => {
  it('runs the agent with its state file, restarts it, and leaves a removed device stopped', () => {
    const unit = systemdUnit({ ...spec, allowChanges: true });
    expect(unit).toContain(
      `ExecStart=${process.execPath} ${bundle} run --state /var/lib/patchwell-agent/state.json --allow-changes`,
    );
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^RestartPreventExitStatus=3$/m);
    expect(unit).toMatch(/^StateDirectory=patchwell-agent$/m);
    expect(unit).toMatch(/^WantedBy=multi-user.target$/m);
    expect(systemdUnit(spec)).not.toContain('--allow-changes');
  });

  it('keeps out the hardening that would stop apt or dpkg working as root', () => {
    const unit = systemdUnit(spec);
    for (const option of ['ProtectSystem', 'ProtectHome', 'ProtectKernelModules', 'RestrictSUIDSGID', 'User=']) {
      expect(unit).not.toContain(option);
    }
    expect(unit).toMatch(/^PrivateTmp=yes$/m);
    expect(unit).toMatch(/^KillMode=process$/m);
  });

  it('quotes words with blanks and escapes specifiers', () => {
    expect(systemdQuote('/opt/patchwell/agent.cjs')).toBe('/opt/patchwell/agent.cjs');
    expect(systemdQuote('/opt/my agent/a.cjs')).toBe('"/opt/my agent/a.cjs"');
    expect(systemdQuote('/srv/100%/$HOME')).toBe('/srv/100%%/$$HOME');
    expect(systemdQuote('say "hi"')).toBe('"say \\"hi\\""');
  });

  it.runIf(hasCommand('systemd-analyze'))('passes systemd-analyze verify without a warning', () => {
    // verify checks that ExecStart's program exists: point it at real files.
    const script = path.join(tmp, 'patchwell agent.cjs');
    writeFileSync(script, '');
    const file = path.join(tmp, 'patchwell-agent.service');
    writeFileSync(file, systemdUnit({ ...spec, launcher: [process.execPath, script], allowChanges: true }));
    const out = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });
});

describe('launchd daemon', () => {
  it('is a well-formed property list that keeps the agent running', () => {
    const launcher = ['/opt/homebrew/bin/node', '/opt/patch & well/<agent>.cjs'];
    const xml = launchdPlist({ ...spec, launcher });
    expect(readPlist(xml)).toEqual({
      Label: 'com.patchwell.agent',
      ProgramArguments: [...launcher, 'run', '--state', spec.statePath],
      RunAtLoad: true,
      KeepAlive: true,
      ThrottleInterval: 10,
      Umask: 0o077,
      StandardOutPath: '/var/log/patchwell-agent.log',
      StandardErrorPath: '/var/log/patchwell-agent.log',
    });
  });

  it.runIf(hasCommand('plutil'))('passes plutil -lint', () => {
    const file = path.join(tmp, 'com.patchwell.agent.plist');
    writeFileSync(file, launchdPlist(spec));
    expect(() => execFileSync('plutil', ['-lint', file])).not.toThrow();
  });
});

describe('Windows scheduled task', () => {
  it('runs node with the bundle as SYSTEM at startup and locks the state folder down', () => {
    const script = windowsInstallScript({
      launcher: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\ProgramData\\Patchwell\\patchwell-agent.cjs'],
      statePath: 'C:\\ProgramData\\Patchwell\\state.json',
      allowChanges: true,
    });
    expect(script).toContain("-Execute 'C:\\Program Files\\nodejs\\node.exe'");
    expect(script).toContain(
      "-Argument 'C:\\ProgramData\\Patchwell\\patchwell-agent.cjs run --state C:\\ProgramData\\Patchwell\\state.json --allow-changes'",
    );
    expect(script).toContain("New-ScheduledTaskPrincipal -UserId 'SYSTEM'");
    expect(script).toContain('New-ScheduledTaskTrigger -AtStartup');
    expect(script).toContain("icacls 'C:\\ProgramData\\Patchwell' /inheritance:r");
  });

  it('quotes arguments the way Windows splits them', () => {
    expect(windowsArg('C:\\Patch well\\a.cjs')).toBe('"C:\\Patch well\\a.cjs"');
    expect(windowsArg('C:\\dir with space\\')).toBe('"C:\\dir with space\\\\"');
    expect(windowsArg('plain')).toBe('plain');
    expect(windowsArg('it\'s "x"')).toBe('"it\'s \\"x\\""');
  });

  it('doubles single quotes inside PowerShell strings', () => {
    expect(windowsInstallScript({ ...spec, launcher: ["C:\\O'Brien\\node.exe"] })).toContain(
      "-Execute 'C:\\O''Brien\\node.exe'",
    );
  });
});

describe('plans', () => {
  it('install writes the unit, then reloads, enables and restarts it', () => {
    const plan = installPlan('linux', spec);
    expect(plan.write.map((f) => [f.path, f.mode])).toEqual([[SYSTEMD_UNIT_PATH, 0o644]]);
    expect(plan.commands.map((c) => [c.command, ...c.args].join(' '))).toEqual([
      'systemctl daemon-reload',
      'systemctl enable patchwell-agent.service',
      'systemctl restart patchwell-agent.service',
    ]);
    expect(installPlan('mac', spec).write[0]!.path).toBe(LAUNCHD_PLIST_PATH);
    expect(uninstallPlan('linux').remove).toEqual([SYSTEMD_UNIT_PATH]);
  });

  it('describes a Windows plan with its script rather than the encoded command', () => {
    const winSpec = { ...spec, launcher: ['node.exe', 'C:\\ProgramData\\Patchwell\\patchwell-agent.cjs'] };
    const text = describePlan(installPlan('windows', winSpec), { windows: windowsInstallScript(winSpec) });
    expect(text).toContain('Register-ScheduledTask');
    expect(text).not.toContain('-EncodedCommand');
  });

  it('encodes the PowerShell script as UTF-16LE base64', () => {
    const [command] = installPlan('windows', spec).commands;
    const encoded = command!.args.at(-1)!;
    expect(Buffer.from(encoded, 'base64').toString('utf16le')).toBe(windowsInstallScript(spec));
  });

  it('puts the arguments of run after the launcher', () => {
    expect(
      serviceArgs({ launcher: ['/usr/local/bin/patchwell-agent'], statePath: '/s.json', allowChanges: false }),
    ).toEqual(['/usr/local/bin/patchwell-agent', 'run', '--state', '/s.json']);
  });
});

describe('unsafeLauncherReason', () => {
  it('accepts root-owned files nobody else may write, and names the problem otherwise', () => {
    expect(unsafeLauncherReason('/opt/a', { uid: 0, mode: 0o100755 })).toBeNull();
    expect(unsafeLauncherReason('/home/u/a', { uid: 1000, mode: 0o100755 })).toMatch(/not owned by root/);
    expect(unsafeLauncherReason('/tmp', { uid: 0, mode: 0o41777 })).toMatch(/writable by group or others/);
  });
});

describe('launcherProblems', () => {
  it.runIf(process.getuid?.() === 0)('finds files, and folders holding them, that others may replace', async () => {
    const safeDir = path.join(tmp, 'safe');
    const openDir = path.join(tmp, 'open');
    mkdirSync(safeDir, { mode: 0o755 });
    mkdirSync(openDir);
    chmodSync(openDir, 0o777);
    const safe = path.join(safeDir, 'agent.cjs');
    const loose = path.join(safeDir, 'loose.cjs');
    const inOpen = path.join(openDir, 'agent.cjs');
    for (const f of [safe, loose, inOpen]) writeFileSync(f, '', { mode: 0o644 });
    chmodSync(loose, 0o666);
    expect(await launcherProblems([safe])).toEqual([]);
    expect(await launcherProblems([loose])).toEqual([`${loose} is writable by group or others`]);
    expect(await launcherProblems([inOpen])).toEqual([`${openDir} is writable by group or others`]);
    expect(await launcherProblems([path.join(safeDir, 'gone.cjs')])).toEqual([
      `${path.join(safeDir, 'gone.cjs')} does not exist`,
    ]);
  });
});

describe('applyPlan', () => {
  it('writes files with their mode, removes files and stops at the first failing command', async () => {
    const written = path.join(tmp, 'etc', 'unit.service');
    const removed = path.join(tmp, 'old.plist');
    writeFileSync(removed, 'old');
    const log: string[] = [];
    const ok = await applyPlan(
      {
        os: 'linux',
        write: [{ path: written, content: 'unit\n', mode: 0o640 }],
        remove: [removed],
        commands: [
          { command: 'false', args: [], mayFail: true },
          { command: 'true', args: [] },
          { command: 'sh', args: ['-c', 'echo broken >&2; exit 4'] },
          { command: 'sh', args: ['-c', `touch ${path.join(tmp, 'not-reached')}`] },
        ],
      },
      runProcess,
      (line) => log.push(line),
    );
    expect(ok).toBe(false);
    expect(readFileSync(written, 'utf8')).toBe('unit\n');
    expect(statSync(written).mode & 0o777).toBe(0o640);
    expect(existsSync(removed)).toBe(false);
    expect(existsSync(path.join(tmp, 'not-reached'))).toBe(false);
    expect(log).toContain('failed: sh -c echo broken >&2; exit 4 (exit 4)');
    expect(log).toContain('broken');
  });
});
