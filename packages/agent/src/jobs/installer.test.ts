import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient, type AgentApi } from '../api/client.js';
import type { AgentCommand } from '../protocol.js';
import { startFakeAgentServer } from '../test/fake-agent-server.js';
import { createFakePlatform } from '../test/fake-platform.js';
import { executeCommand } from './executor.js';

/**
 * `install_package` with an uploaded installer: downloaded through the real API client from
 * a fake server, checked, run by the (real) shell through the fake platform, then removed.
 */

let fake: Awaited<ReturnType<typeof startFakeAgentServer>>;
let api: AgentApi;
let scratch: string;
const bytes = randomBytes(50_000);
const installer = {
  id: 'inst-1',
  name: 'acme setup.sh',
  sha256: createHash('sha256').update(bytes).digest('hex'),
  size_bytes: bytes.length,
};

beforeAll(async () => {
  fake = await startFakeAgentServer();
  fake.addInstaller(installer.id, bytes);
  api = createApiClient(fake.url);
  const enrolled = await api.enroll({
    access_key: fake.accessKey,
    machine_id: 'installer-test',
    hostname: 'host',
    os_family: 'linux',
    os_name: 'Linux',
    os_version: '1',
    arch: 'x64',
    agent_version: '0.1.0',
  });
  api.setToken(enrolled.token);
  scratch = mkdtempSync(path.join(os.tmpdir(), 'installer-test-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

const install = (args: Partial<AgentCommand['args']> = {}): AgentCommand => ({
  id: 7,
  type: 'install_package',
  args: { package: 'acme', installer, install_command: 'echo "file=$INSTALLER"', ...args },
  timeout_s: 60,
  created_at: new Date().toISOString(),
});

/** Our download folders in the temporary directory (each run must leave none behind). */
const downloads = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith('patchwell-installer-'));

describe('install_package with an installer', () => {
  it('runs the install command on the checked file through $INSTALLER, then removes it', async () => {
    const before = downloads();
    const onInventory = vi.fn();
    const result = await executeCommand(
      install({
        install_command: [
          'echo "file=$INSTALLER"',
          'sha256sum "$INSTALLER" | cut -c1-64',
          'stat -c "mode=%a" "$(dirname "$INSTALLER")"',
        ].join('\n'),
      }),
      { platform: createFakePlatform(), api, allowChanges: true, onInventory },
    );
    expect(result).toMatchObject({ status: 'success', exit_code: 0, data: { installer: 'inst-1', simulated: false } });
    const file = /file=(.+)/.exec(result.stdout_tail)![1]!;
    expect(path.basename(file)).toBe('acme_setup.sh');
    expect(result.stdout_tail).toContain(installer.sha256);
    // A private folder of its own.
    expect(result.stdout_tail).toContain('mode=700');
    expect(existsSync(file)).toBe(false);
    expect(downloads()).toEqual(before);
    expect(onInventory).toHaveBeenCalledOnce();
  });

  it('refuses a download whose checksum differs and runs nothing', async () => {
    const marker = path.join(scratch, 'ran');
    const before = downloads();
    const result = await executeCommand(
      install({ installer: { ...installer, sha256: 'f'.repeat(64) }, install_command: `touch ${marker}` }),
      { platform: createFakePlatform(), api, allowChanges: true },
    );
    expect(result.status).toBe('error');
    expect(result.stderr_tail).toContain(
      `The downloaded installer acme setup.sh does not match its checksum (SHA-256 ${installer.sha256}, expected ${'f'.repeat(64)}); it was not run.`,
    );
    expect(existsSync(marker)).toBe(false);
    expect(downloads()).toEqual(before);
  });

  it('refuses a download of another size than the command names', async () => {
    const result = await executeCommand(install({ installer: { ...installer, size_bytes: 10 } }), {
      platform: createFakePlatform(),
      api,
      allowChanges: true,
    });
    expect(result).toMatchObject({ status: 'error', data: { installer: 'inst-1' } });
    expect(result.stderr_tail).toContain(
      'The downloaded installer acme setup.sh is 50000 bytes, expected 10; it was not run.',
    );
  });

  it('reports the server’s refusal (no open command, another zone) as an error', async () => {
    const result = await executeCommand(install({ installer: { ...installer, id: 'unknown' } }), {
      platform: createFakePlatform(),
      api,
      allowChanges: true,
    });
    expect(result.status).toBe('error');
    expect(result.stderr_tail).toContain('404');
  });

  it('only says what it would run without --allow-changes, downloading nothing', async () => {
    const requests = fake.requests.length;
    const result = await executeCommand(install({ install_command: 'sh "$INSTALLER" --quiet' }), {
      platform: createFakePlatform(),
      api,
      allowChanges: false,
    });
    expect(result).toMatchObject({ status: 'success', data: { installer: 'inst-1', simulated: true } });
    expect(result.stdout_tail).toContain('Simulated: would download acme setup.sh (50000 bytes)');
    expect(result.stdout_tail).toContain('sh "$INSTALLER" --quiet');
    expect(fake.requests.slice(requests)).toEqual([]);
  });
});
