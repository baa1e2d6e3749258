/** The real Linux adapter on this machine (Debian with dpkg and apt). */
import { ZInventoryBody } from '@patchwell/core/agent/agent-protocol.schema';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { executeCommand } from '../jobs/executor.js';
import { collectInventory } from '../jobs/inventory.js';
import { fakeApi } from '../test/fake-api.js';
import { createLinuxPlatform } from './linux.js';

const linux = createLinuxPlatform();
const isDebian =
  process.platform === 'linux' &&
  (() => {
    try {
      return /ID=debian|ID_LIKE=.*debian/.test(readFileSync('/etc/os-release', 'utf8'));
    } catch {
      return false;
    }
  })();

describe.runIf(isDebian)('the Linux adapter on this machine', () => {
  it('installs x11vnc for remote control only where it is missing, through the package manager', async () => {
    // CI installs x11vnc: ready as it is.
    expect(await createLinuxPlatform().remoteDesktopSetup!()).toBeNull();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const setup = await createLinuxPlatform().remoteDesktopSetup!();
      expect(setup?.what).toBe('x11vnc');
      expect([setup!.install.command, ...setup!.install.args].join(' ')).toMatch(/^apt-get .*install.* x11vnc$/);
    } finally {
      process.env.PATH = path;
    }
  });

  it('lists the real installed packages', async () => {
    const software = await linux.software();
    expect(software.length).toBeGreaterThan(100);
    const names = new Set(software.map((s) => s.name));
    expect(names.has('dpkg')).toBe(true);
    expect(names.has('bash')).toBe(true);
    expect(software.find((s) => s.name === 'bash')).toMatchObject({
      source: 'dpkg',
      version: expect.any(String) as string,
    });
  });

  it('parses whatever apt-get -s reports as pending', async () => {
    const patches = await linux.patches();
    expect(Array.isArray(patches)).toBe(true);
    for (const p of patches) {
      expect(p.name).toMatch(/^[a-z0-9][a-z0-9.+-]+$/);
      expect(p.version).not.toBe('');
    }
  }, 120_000);

  it('reads the system facts and the machine id', async () => {
    const system = await linux.system();
    expect(system).toMatchObject({ os_family: 'linux', hostname: os.hostname(), cpu_cores: os.cpus().length });
    expect(system.os_name).toMatch(/Debian|Ubuntu/);
    expect(await linux.machineId()).toBe(readFileSync('/etc/machine-id', 'utf8').trim());
  });

  it('collects an inventory the server accepts', async () => {
    const inventory = await collectInventory(linux);
    expect(() => ZInventoryBody.parse(inventory)).not.toThrow();
    expect((await collectInventory(linux)).hash).toBe(inventory.hash);
  }, 120_000);

  it('simulates an install with apt-get -s and changes nothing', async () => {
    const before = (await linux.software()).find((s) => s.name === 'bash')!.version;
    const result = await executeCommand(
      {
        id: 1,
        type: 'install_updates',
        args: { names: ['bash'] },
        timeout_s: 120,
        created_at: new Date().toISOString(),
      },
      { platform: linux, api: fakeApi(), allowChanges: false },
    );
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ simulated: true, command: expect.stringContaining('apt-get -s') as string });
    expect((await linux.software()).find((s) => s.name === 'bash')!.version).toBe(before);
  }, 120_000);
});
