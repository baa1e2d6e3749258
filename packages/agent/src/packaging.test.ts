import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from './version.js';

/**
 * The shipped forms of the agent, built the way `npm run build` and `npm run build:sea` build
 * them (into a temporary folder) and run as separate processes from outside the repository,
 * so a dependency left out of the bundle shows up as a failure.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'patchwell-packaging-'));
const bundle = path.join(tmp, 'patchwell-agent.cjs');
const sea = path.join(tmp, 'patchwell-agent-linux-x64');
const canBuildSea = process.platform === 'linux' && process.arch === 'x64';

function agent(program: string[], args: string[]) {
  const [command, ...rest] = program;
  const out = spawnSync(command!, [...rest, ...args], { cwd: tmp, encoding: 'utf8', timeout: 30_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--outfile', bundle], { stdio: 'pipe' });
  if (canBuildSea) {
    execFileSync(process.execPath, [path.join(root, 'scripts/build-sea.mjs'), '--bundle', bundle, '--out', sea], {
      stdio: 'pipe',
    });
  }
}, 180_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each([
  { form: 'bundle', program: () => [process.execPath, bundle], isSea: false, enabled: true },
  { form: 'single executable', program: () => [sea], isSea: true, enabled: canBuildSea },
])('the $form', ({ program, isSea, enabled }) => {
  it.runIf(enabled)('reports its version and whether it is a single executable', () => {
    const out = agent(program(), ['version', '--json']);
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toMatchObject({ version: AGENT_VERSION, sea: isSea, platform: process.platform });
  });

  it.runIf(enabled)('reads a missing state as not enrolled', () => {
    const state = path.join(tmp, 'no-state', 'state.json');
    const out = agent(program(), ['status', '--json', '--state', state]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ enrolled: false, state_file: state, hostname: os.hostname() });
  });

  it.runIf(enabled && process.platform === 'linux')('prints the systemd unit that would start this very file', () => {
    const out = agent(program(), ['install-service', '--state', '/var/lib/patchwell-agent/state.json']);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(`ExecStart=${program().join(' ')} run --state /var/lib/patchwell-agent/state.json\n`);
    expect(out.stdout).toContain('Nothing was changed: add --yes');
  });
});

describe('install-service --yes', () => {
  it('refuses before touching anything when the device is not enrolled', () => {
    const state = path.join(tmp, 'never-enrolled', 'state.json');
    const out = agent([process.execPath, bundle], ['install-service', '--yes', '--state', state]);
    expect(out.status).toBe(1);
    // As root the refusal is about the missing enrolment; otherwise about root itself.
    expect(out.stderr).toMatch(process.getuid?.() === 0 ? /No state at .*enrol first/ : /needs root/);
  });
});

describe('sizes', () => {
  it('keeps the bundle under the spec’s 10 MB for the agent', () => {
    expect(statSync(bundle).size).toBeLessThan(10 * 1024 * 1024);
  });
});
