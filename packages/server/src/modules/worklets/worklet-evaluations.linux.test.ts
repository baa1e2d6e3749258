import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorkletCatalog } from './worklet-catalog.loader';
import { applyWorkletEntryParameters } from '@patchwell/core/worklets/worklet-rules';

/**
 * Runs the Linux worklets for real on this machine, the way the agent does (`bash -s`
 * with the script on stdin). Evaluations only read, so they run against the machine as it
 * is; remediations run only where a parameter points them at a scratch directory or at a
 * package that is certainly absent.
 */

const isLinux = process.platform === 'linux';
const isRoot = process.getuid?.() === 0;
const entry = (id: string) => {
  const e = loadWorkletCatalog().find((w) => w.id === id);
  if (!e) throw new Error(`no worklet ${id}`);
  return e;
};

type Run = { status: number | null; line: string; lines: string[]; stderr: string };

function run(code: string): Run {
  const r = spawnSync('bash', ['-s'], { input: code, encoding: 'utf8', timeout: 30_000 });
  const lines = r.stdout.split('\n').filter((l) => l.trim() !== '');
  return { status: r.status, line: lines.at(-1) ?? '', lines, stderr: r.stderr };
}

function evaluate(id: string, values: Record<string, string> = {}): Run {
  return run(applyWorkletEntryParameters(entry(id), values).evaluation_code);
}

function remediate(id: string, values: Record<string, string> = {}): Run {
  return run(applyWorkletEntryParameters(entry(id), values).remediation_code);
}

/** Whether a command exists for root's usual PATH, which the scripts set themselves. */
function has(command: string): boolean {
  const path = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
  return spawnSync('bash', ['-c', `PATH=${path} command -v ${command}`]).status === 0;
}

function dpkgInstalled(name: string): boolean {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout === 'install ok installed';
}

const scratch = mkdtempSync(join(tmpdir(), 'patchwell-worklet-run-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.runIf(isLinux)('Linux worklet evaluations on this machine', () => {
  const linux = loadWorkletCatalog().filter((e) => e.os_family === 'linux');

  it.each(linux.map((e) => [e.id]))('%s exits 0, 1 or 2 with exactly one reason line', (id) => {
    const r = evaluate(id);
    expect(r.status, `${id}: ${r.stderr}`).not.toBeNull();
    expect([0, 1, 2]).toContain(r.status);
    expect(r.lines, id).toHaveLength(1);
    expect(r.line.length).toBeGreaterThan(10);
    if (r.status === 0) expect(r.line).toMatch(/^Compliant: /);
    else expect(r.line).not.toMatch(/^Compliant/);
  });

  it('linux-remove-package: an installed package needs remediation, an absent one is compliant', () => {
    expect(dpkgInstalled('bash')).toBe(true);
    expect(evaluate('linux-remove-package', { PACKAGE_NAME: 'bash' })).toMatchObject({
      status: 1,
      line: expect.stringMatching(/^bash is installed/),
    });
    const absent = { PACKAGE_NAME: 'patchwell-no-such-package' };
    expect(evaluate('linux-remove-package', absent)).toMatchObject({
      status: 0,
      line: 'Compliant: patchwell-no-such-package is not installed.',
    });
    expect(remediate('linux-remove-package', absent)).toMatchObject({
      status: 0,
      line: expect.stringMatching(/^Nothing to do/),
    });
    expect(evaluate('linux-remove-package', { PACKAGE_NAME: '-rf' }).status).toBe(2);
  });

  it('linux-disk-space-cleanup: a threshold of 100% passes, 0% fails, a missing path cannot be checked', () => {
    expect(evaluate('linux-disk-space-cleanup', { MOUNT_POINT: scratch, MAX_USED_PERCENT: '100' }).status).toBe(0);
    const full = evaluate('linux-disk-space-cleanup', { MOUNT_POINT: scratch, MAX_USED_PERCENT: '0' });
    expect(full).toMatchObject({ status: 1, line: expect.stringMatching(/% full, above 0%\.$/) });
    expect(evaluate('linux-disk-space-cleanup', { MOUNT_POINT: join(scratch, 'missing') }).status).toBe(2);
    expect(evaluate('linux-disk-space-cleanup', { MAX_USED_PERCENT: '101' }).status).toBe(2);
  });

  it('linux-rotate-large-logs: finds an oversized log, rotates it into a gzip copy and truncates it', () => {
    const dir = join(scratch, 'logs');
    mkdirSync(join(dir, 'app'), { recursive: true });
    const big = Buffer.alloc(1024 * 1024 + 1, 'x');
    writeFileSync(join(dir, 'app', 'big.log'), big);
    writeFileSync(join(dir, 'small.log'), 'ok\n');
    writeFileSync(join(dir, 'big.txt'), big);
    const old = join(dir, 'small.log.20200101000000.gz');
    const notOurs = join(dir, 'notes.gz');
    for (const f of [old, notOurs]) {
      writeFileSync(f, 'archive');
      utimesSync(f, new Date('2020-01-01'), new Date('2020-01-01'));
    }
    const params = { LOG_DIR: dir, MAX_SIZE_MB: '1' };

    expect(evaluate('linux-rotate-large-logs', params)).toMatchObject({
      status: 1,
      line: expect.stringContaining('1 log file(s) larger than 1 MiB'),
    });
    expect(remediate('linux-rotate-large-logs', params)).toMatchObject({
      status: 0,
      line: 'Remediated: 1 log file(s) rotated and compressed, 1 old archive(s) deleted.',
    });

    expect(statSync(join(dir, 'app', 'big.log')).size).toBe(0);
    const archive = readdirSync(join(dir, 'app')).find((f) => /^big\.log\.\d{14}\.gz$/.test(f));
    expect(archive).toBeDefined();
    expect(gunzipSync(readFileSync(join(dir, 'app', archive!))).equals(big)).toBe(true);
    expect(statSync(join(dir, 'big.txt')).size).toBe(big.length);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(notOurs)).toBe(true);
    expect(evaluate('linux-rotate-large-logs', params).status).toBe(0);
  });

  it('linux-tmp-permissions: a 0755 directory fails, a symlink cannot be checked', () => {
    const dir = join(scratch, 'shared-tmp');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    expect(evaluate('linux-tmp-permissions', { TARGET_DIR: dir })).toMatchObject({
      status: 1,
      line: expect.stringContaining('has mode 755'),
    });
    const link = join(scratch, 'tmp-link');
    symlinkSync(dir, link);
    expect(evaluate('linux-tmp-permissions', { TARGET_DIR: link }).status).toBe(2);
    expect(remediate('linux-tmp-permissions', { TARGET_DIR: link }).status).toBe(2);
    expect(statSync(dir).mode & 0o7777).toBe(0o755);
  });

  it.runIf(isRoot)('linux-tmp-permissions: remediation sets 1777 and root ownership, then evaluation passes', () => {
    const dir = join(scratch, 'shared-tmp-root');
    mkdirSync(dir);
    chmodSync(dir, 0o700);
    expect(remediate('linux-tmp-permissions', { TARGET_DIR: dir }).status).toBe(0);
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
    expect(statSync(dir).uid).toBe(0);
    expect(evaluate('linux-tmp-permissions', { TARGET_DIR: dir })).toMatchObject({ status: 0 });
  });

  it('linux-restart-stuck-service: answers for this machine (no systemd, or an unknown unit)', () => {
    const systemd = existsSync('/run/systemd/system');
    const r = evaluate('linux-restart-stuck-service', { SERVICE_NAME: 'patchwell-no-such-unit.service' });
    expect(r.status).toBe(2);
    expect(r.line).toMatch(systemd ? /is not installed/ : /systemd is not running/);
  });

  it('linux-ssh-*: compliant when no OpenSSH server is installed', () => {
    if (has('sshd')) return;
    expect(evaluate('linux-ssh-root-login-disabled')).toMatchObject({
      status: 0,
      line: 'Compliant: the OpenSSH server is not installed.',
    });
    expect(evaluate('linux-ssh-password-auth-disabled')).toMatchObject({ status: 0 });
  });

  it('linux-ssh-*: remediation rewrites a copy of sshd_config idempotently, with a stand-in sshd', () => {
    // The scripts are pointed at a scratch /etc/ssh and at stand-ins for the OpenSSH server
    // (outside the system): 'sshd -T' answers with the first value it finds, as sshd does.
    const root = join(scratch, 'ssh');
    mkdirSync(join(root, 'etc/ssh/sshd_config.d'), { recursive: true });
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'home/.ssh'), { recursive: true });
    const main = join(root, 'etc/ssh/sshd_config');
    writeFileSync(
      main,
      'Include /etc/ssh/sshd_config.d/*.conf\nPermitRootLogin yes\nMatch User bob\n  PasswordAuthentication yes\n',
    );
    writeFileSync(join(root, 'etc/ssh/sshd_config.d/10-local.conf'), 'PermitRootLogin prohibit-password\n');
    const first = (pattern: string, name: string, fallback: string) =>
      `v=$(cat ${main} ${root}/etc/ssh/sshd_config.d/*.conf | grep -iE '^[[:space:]]*${pattern}[[:space:]]' | head -n 1 | awk '{ print tolower($2) }'); echo "${name} \${v:-${fallback}}"`;
    const fakeSshd = [
      '#!/bin/bash',
      '[ "$1" = "-t" ] && exit 0',
      first('PermitRootLogin', 'permitrootlogin', 'prohibit-password'),
      first('PasswordAuthentication', 'passwordauthentication', 'yes'),
      first('(ChallengeResponseAuthentication|KbdInteractiveAuthentication)', 'kbdinteractiveauthentication', 'yes'),
    ];
    writeFileSync(join(root, 'bin/sshd'), fakeSshd.join('\n'), { mode: 0o755 });
    // The reload must not reach this machine's own sshd.
    for (const tool of ['systemctl', 'service'])
      writeFileSync(join(root, 'bin', tool), '#!/bin/bash\nexit 0\n', { mode: 0o755 });
    writeFileSync(join(root, 'passwd'), `admin:x:1000:1000::${join(root, 'home')}:/bin/bash\n`);
    const sandbox = (code: string) =>
      run(
        code
          .replaceAll('/etc/ssh', join(root, 'etc/ssh'))
          .replace('export PATH="', `export PATH="${join(root, 'bin')}:`)
          .replace('</etc/passwd', `<${join(root, 'passwd')}`),
      );
    const root_ = entry('linux-ssh-root-login-disabled');
    const password = entry('linux-ssh-password-auth-disabled');

    expect(sandbox(root_.evaluation_code)).toMatchObject({
      status: 1,
      line: 'Root can log in over SSH (PermitRootLogin yes).',
    });
    expect(sandbox(password.remediation_code)).toMatchObject({
      status: 1,
      line: expect.stringMatching(/^Refused: no account has an authorized_keys/),
    });
    writeFileSync(join(root, 'home/.ssh/authorized_keys'), 'ssh-ed25519 AAAA admin\n');
    for (let i = 0; i < 2; i++) {
      expect(sandbox(root_.remediation_code).status).toBe(0);
      expect(sandbox(password.remediation_code).status).toBe(0);
    }
    expect(sandbox(root_.evaluation_code)).toMatchObject({ status: 0, line: 'Compliant: PermitRootLogin is no.' });
    expect(sandbox(password.evaluation_code).status).toBe(0);
    const config = readFileSync(main, 'utf8');
    expect(config.match(/^PermitRootLogin no$/gm)).toHaveLength(1);
    expect(config.match(/^PasswordAuthentication no$/gm)).toHaveLength(1);
    expect(config).toContain('# Disabled by Patchwell:   PasswordAuthentication yes');
    expect(readFileSync(join(root, 'etc/ssh/sshd_config.d/10-local.conf'), 'utf8')).toBe(
      '# Disabled by Patchwell: PermitRootLogin prohibit-password\n',
    );
    expect(readdirSync(join(root, 'etc/ssh')).sort()).toEqual(['sshd_config', 'sshd_config.d']);
  });

  it('linux-firewall-enabled, linux-auditd-running, linux-automatic-updates: match what is installed', () => {
    if (!has('ufw') && !has('firewall-cmd')) {
      expect(evaluate('linux-firewall-enabled')).toMatchObject({
        status: 1,
        line: expect.stringMatching(/^No host firewall/),
      });
    }
    if (!has('auditd')) {
      expect(evaluate('linux-auditd-running')).toMatchObject({
        status: 1,
        line: 'The audit daemon (auditd) is not installed.',
      });
    }
    if (has('apt-config') && !dpkgInstalled('unattended-upgrades')) {
      expect(evaluate('linux-automatic-updates')).toMatchObject({
        status: 1,
        line: 'unattended-upgrades is not installed.',
      });
    }
  });

  it('linux-reboot-required: follows the reboot-required flag', () => {
    const pending = existsSync('/var/run/reboot-required');
    if (!pending && has('needs-restarting')) return;
    expect(evaluate('linux-reboot-required').status).toBe(pending ? 1 : 0);
  });

  it('linux-journald-size-limit: refuses a size it cannot read', () => {
    expect(evaluate('linux-journald-size-limit', { MAX_USE: 'lots' }).status).toBe(2);
  });
});
