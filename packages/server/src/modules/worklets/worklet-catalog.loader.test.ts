import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPowerShellSanity } from './powershell-sanity';
import { loadWorkletCatalog, readWorkletCatalogEntry, WORKLET_CATALOG_DIR } from './worklet-catalog.loader';
import { ZWorkletCatalogEntry, type WorkletCatalogEntry } from '@patchwell/core/worklets/worklet-catalog.schema';
import { applyWorkletEntryParameters, queryWorkletCatalog } from '@patchwell/core/worklets/worklet-rules';

const catalog = loadWorkletCatalog();
const byOs = (os: string) => catalog.filter((e) => e.os_family === os);
const scriptsOf = (e: WorkletCatalogEntry) =>
  [
    ['evaluate', e.evaluation_code],
    ['remediate', e.remediation_code],
  ] as const;

const scratch = mkdtempSync(join(tmpdir(), 'patchwell-worklets-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('loadWorkletCatalog', () => {
  it('ships at least 25 valid entries, balanced across Linux, macOS and Windows', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(25);
    expect(byOs('linux').length).toBeGreaterThanOrEqual(10);
    expect(byOs('mac').length).toBeGreaterThanOrEqual(6);
    expect(byOs('windows').length).toBeGreaterThanOrEqual(9);
    for (const e of catalog) expect(ZWorkletCatalogEntry.safeParse(e).success, e.id).toBe(true);
  });

  it('gives every entry a unique id, uuid and legacy number, and the language of its OS', () => {
    expect(new Set(catalog.map((e) => e.id)).size).toBe(catalog.length);
    expect(new Set(catalog.map((e) => e.uuid)).size).toBe(catalog.length);
    expect(new Set(catalog.map((e) => e.legacy_id)).size).toBe(catalog.length);
    for (const e of catalog) expect(e.language, e.id).toBe(e.os_family === 'windows' ? 'powershell' : 'bash');
  });

  it('refuses a folder whose scripts assign a parameter something other than its default', () => {
    const dir = join(scratch, 'linux-remove-package');
    cpSync(join(WORKLET_CATALOG_DIR, 'linux-remove-package'), dir, { recursive: true });
    expect(() => readWorkletCatalogEntry(dir)).not.toThrow();
    writeFileSync(join(dir, 'remediate.sh'), "#!/bin/bash\nPACKAGE_NAME='nano'\nexit 0\n");
    expect(() => readWorkletCatalogEntry(dir)).toThrow(/PACKAGE_NAME/);
    rmSync(join(dir, 'remediate.sh'));
    expect(() => readWorkletCatalogEntry(dir)).toThrow(/remediate\.sh is missing/);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, language: 'powershell' }));
    expect(() => readWorkletCatalogEntry(dir)).toThrow(/linux worklets are written in bash/);
  });
});

describe('worklet scripts', () => {
  it('open with a header naming the worklet and say why they exit', () => {
    for (const e of catalog) {
      for (const [kind, code] of scriptsOf(e)) {
        const head = code.split('\n').slice(0, 3).join('\n');
        expect(head, `${e.id} ${kind}`).toMatch(
          new RegExp(`Patchwell worklet ${e.id}: ${kind === 'evaluate' ? 'evaluation' : 'remediation'}`),
        );
        expect(code, `${e.id} ${kind}`).toMatch(/exit 0/);
        expect(code, `${e.id} ${kind}`).toMatch(/exit [12]/);
        // Each outcome prints its one-line reason first.
        expect(code, `${e.id} ${kind}`).toMatch(e.language === 'bash' ? /echo "/ : /Write-Output /);
        if (kind === 'evaluate') expect(code, e.id).toContain('Compliant: ');
      }
    }
  });

  it('pass bash -n (Linux and macOS)', () => {
    const sh = catalog.filter((e) => e.language === 'bash');
    for (const e of sh) {
      for (const [kind, code] of scriptsOf(e)) {
        const r = spawnSync('bash', ['-n'], { input: code, encoding: 'utf8' });
        expect(r.status, `${e.id} ${kind}: ${r.stderr}`).toBe(0);
      }
    }
  });

  const shellcheck = spawnSync('bash', ['-c', 'command -v shellcheck'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!shellcheck)('pass shellcheck at warning level (when shellcheck is installed)', () => {
    const files = catalog
      .filter((e) => e.language === 'bash')
      .flatMap((e) => ['evaluate.sh', 'remediate.sh'].map((f) => join(WORKLET_CATALOG_DIR, e.id, f)));
    const r = spawnSync('shellcheck', ['-s', 'bash', '-S', 'warning', ...files], { encoding: 'utf8' });
    expect(r.stdout).toBe('');
  });

  it('keep macOS scripts to the bash 3.2 that macOS ships', () => {
    const bash4 = /\bdeclare -A\b|\bmapfile\b|\breadarray\b|;;&|;&|\$\{[A-Za-z_]+(\^\^|,,)\}/;
    for (const e of byOs('mac'))
      for (const [kind, code] of scriptsOf(e)) expect(code, `${e.id} ${kind}`).not.toMatch(bash4);
  });

  it('keep PowerShell scripts lexically well-formed and run them in 64-bit PowerShell with their parameters', () => {
    for (const e of byOs('windows')) {
      for (const [kind, code] of scriptsOf(e)) {
        expect(checkPowerShellSanity(code), `${e.id} ${kind}`).toEqual([]);
        expect(code, `${e.id} ${kind}`).toContain('\\Sysnative\\WindowsPowerShell\\v1.0\\powershell.exe');
        // The 64-bit child sees no variable of the parent: parameters travel as -args.
        for (const p of e.parameters.filter((p) => code.includes(`$${p.name} = '`))) {
          expect(code, `${e.id} ${kind} ${p.name}`).toMatch(new RegExp(`\\[string\\]\\$${p.name}\\b`));
          expect(code, `${e.id} ${kind} ${p.name}`).toMatch(new RegExp(`-args [^\\n]*\\$${p.name}\\b`));
        }
      }
    }
  });

  it('never write anything in evaluation scripts', () => {
    const bashWrites =
      /\b(rm|mv|cp|chmod|chown|mkdir|touch|tee|dd|truncate|shutdown|reboot)\s|sed -i|apt-get (install|remove|purge)|\b(dnf|yum|zypper) (install|remove)|systemctl (start|stop|restart|reload|enable|disable|kill|reset-failed|unmask|mask)|ufw (enable|allow|--force)|set-ntp|defaults (-currentHost )?write|launchctl (disable|enable|bootout|bootstrap)|fdesetup enable|spctl --(global|master)|sysadminctl -|systemsetup -[fs]|\s-delete\b|apt-get clean|--vacuum|--set[a-z]+\b/;
    const psWrites =
      /\b(Set|New|Remove|Enable|Disable|Start|Stop|Restart|Add|Clear|Resume|Backup|Suspend)-[A-Z]\w+|sc\.exe config|msiexec|\.(Start|Stop|Continue)\(\)/;
    for (const e of catalog) {
      const code = e.evaluation_code
        .split('\n')
        .filter((l) => !/^\s*#/.test(l))
        .join('\n');
      if (e.language === 'bash') {
        expect(code, e.id).not.toMatch(bashWrites);
        // Output goes to the agent or /dev/null only: '>' is allowed as '>/dev/null' and '>&N' only.
        const unquoted = code.replace(/'[^'\n]*'/g, "''");
        expect(unquoted.replace(/\d?>(\/dev\/null|&\d)/g, ''), e.id).not.toMatch(/>/);
      } else {
        expect(code.replace(/<#[\s\S]*?#>/g, ''), e.id).not.toMatch(psWrites);
      }
    }
  });
});

describe('applyWorkletEntryParameters', () => {
  const removePackage = catalog.find((e) => e.id === 'linux-remove-package')!;
  const removeAppx = catalog.find((e) => e.id === 'win-remove-appx-package')!;

  it('sets the assignment line in every script that has it and refuses undeclared names', () => {
    const codes = applyWorkletEntryParameters(removePackage, { PACKAGE_NAME: 'rsh-client' });
    expect(codes.evaluation_code).toContain("\nPACKAGE_NAME='rsh-client'\n");
    expect(codes.remediation_code).toContain("\nPACKAGE_NAME='rsh-client'\n");
    expect(codes.evaluation_code).not.toContain("PACKAGE_NAME='telnet'");
    expect(() => applyWorkletEntryParameters(removePackage, { NOPE: 'x' })).toThrow(/NOPE/);
    expect(() => applyWorkletEntryParameters(removePackage, { PACKAGE_NAME: 'a\nrm -rf /' })).toThrow();
  });

  it('quotes PowerShell values by doubling single quotes', () => {
    const codes = applyWorkletEntryParameters(removeAppx, { PackageName: "O'Brien.App" });
    expect(codes.evaluation_code).toContain("$PackageName = 'O''Brien.App'");
  });

  it('keeps a bash value literal, so nothing in it runs', () => {
    const { evaluation_code } = applyWorkletEntryParameters(removePackage, { PACKAGE_NAME: "x'; echo INJECTED; '" });
    const r = spawnSync('bash', ['-s'], { input: evaluation_code, encoding: 'utf8', timeout: 20_000 });
    // Run as code, the value would print a line of its own; kept literal, it is echoed back whole.
    expect(r.stdout.split('\n')).not.toContain('INJECTED');
    expect(r.stdout).toContain("The package name 'x'; echo INJECTED; '' is not a valid package name.");
    expect(r.status).toBe(2);
  });
});

describe('queryWorkletCatalog', () => {
  it('filters by OS family, category and text, and pages with the total size', () => {
    const linux = queryWorkletCatalog(catalog, { page: 0, limit: 5, os_family: 'linux' });
    expect(linux.size).toBe(byOs('linux').length);
    expect(linux.results).toHaveLength(5);
    expect(linux.results.every((e) => e.os_family === 'linux')).toBe(true);
    const page2 = queryWorkletCatalog(catalog, { page: 1, limit: 5, os_family: 'linux' });
    expect(page2.results[0]?.id).not.toBe(linux.results[0]?.id);
    const firewall = queryWorkletCatalog(catalog, { page: 0, limit: 25, category: 'firewall' });
    expect(firewall.results.map((e) => e.os_family).sort()).toEqual(['linux', 'mac', 'windows']);
    const smb = queryWorkletCatalog(catalog, { page: 0, limit: 25, search: 'smbV1' });
    expect(smb.results.map((e) => e.id)).toEqual(['win-smb1-disabled']);
  });
});
