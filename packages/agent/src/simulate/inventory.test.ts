import { ZInventoryBody } from '@patchwell/core/agent/agent-protocol.schema';
import { describe, expect, it } from 'vitest';
import { inventoryHash } from '../jobs/inventory.js';
import { bumpRelease, generateMachine, simMachineId } from './inventory.js';
import { createRng } from './rng.js';

const fleet = Array.from({ length: 60 }, (_, i) => generateMachine(42, i));

describe('the simulated inventory', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(generateMachine(42, 7)).toEqual(generateMachine(42, 7));
    expect(generateMachine(42, 7).machineId).not.toBe(generateMachine(43, 7).machineId);
    expect(new Set(fleet.map((m) => m.machineId)).size).toBe(fleet.length);
  });

  it('gives every machine of a 100,000-device fleet its own id', () => {
    const ids = new Set(Array.from({ length: 100_000 }, (_, i) => simMachineId(42, i)));
    expect(ids.size).toBe(100_000);
    expect(generateMachine(42, 99_999).machineId).toBe(simMachineId(42, 99_999));
  });

  it('mixes Windows, macOS and Linux', () => {
    const families = new Set(fleet.map((m) => m.system.os_family));
    expect([...families].sort()).toEqual(['linux', 'mac', 'windows']);
  });

  it('gives every machine hundreds of packages without duplicates', () => {
    for (const m of fleet) {
      expect(m.software.length).toBeGreaterThanOrEqual(100);
      const keys = m.software.map((s) => `${s.name}@${s.version}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    expect(fleet.some((m) => m.software.length >= 200)).toBe(true);
  });

  it('has pending patches with CVE ids and severities, and KB numbers on Windows', () => {
    const patches = fleet.flatMap((m) => m.patches);
    expect(patches.length).toBeGreaterThan(100);
    expect(patches.some((p) => p.severity === 'critical')).toBe(true);
    expect(
      patches.filter((p) => p.cves.length > 0).every((p) => p.cves.every((c) => /^CVE-\d{4}-\d{4,}$/.test(c))),
    ).toBe(true);
    const windows = fleet.filter((m) => m.system.os_family === 'windows').flatMap((m) => m.patches);
    expect(windows.some((p) => p.kb && /^KB\d{6,7}$/.test(p.kb))).toBe(true);
    expect(
      fleet
        .filter((m) => m.system.os_family !== 'windows')
        .flatMap((m) => m.patches)
        .every((p) => p.kb === null),
    ).toBe(true);
  });

  it('passes the shared inventory schema', () => {
    for (const m of fleet) {
      const body = {
        hash: inventoryHash(m.system, m.software, m.patches),
        system: m.system,
        software: m.software,
        patches: m.patches,
      };
      expect(() => ZInventoryBody.parse(body)).not.toThrow();
    }
  });
});

describe('versions that fit the OS', () => {
  const big = Array.from({ length: 300 }, (_, i) => generateMachine(7, i));
  const on = (prefix: string) => big.filter((m) => m.system.os_name.startsWith(prefix));

  it('writes Ubuntu versions on Ubuntu, Debian ones on Debian and el9 ones on RHEL and Rocky', () => {
    const ubuntu = on('Ubuntu');
    const debian = on('Debian');
    const el = [...on('Red Hat'), ...on('Rocky')];
    for (const group of [ubuntu, debian, el]) expect(group.length).toBeGreaterThan(0);
    for (const m of ubuntu) {
      const versions = m.software.map((s) => s.version);
      expect(versions.every((v) => /^\d+\.\d+\.\d+-\d+ubuntu\d/.test(v))).toBe(true);
      expect(versions.some((v) => v.includes(`ubuntu0.${m.system.os_version}.`))).toBe(true);
      expect(versions.some((v) => v.includes('+deb'))).toBe(false);
    }
    for (const m of debian) {
      expect(m.software.every((s) => /^\d+\.\d+\.\d+-\d+(\+deb12u\d+)?$/.test(s.version))).toBe(true);
    }
    for (const m of el) {
      expect(m.software.every((s) => s.version.endsWith('.el9_4') && s.source === 'rpm')).toBe(true);
    }
  });

  it('patches a Linux package to a later release of the same distribution', () => {
    const linux = big.filter((m) => m.system.os_family === 'linux').flatMap((m) => m.patches);
    expect(linux.length).toBeGreaterThan(50);
    for (const p of linux) {
      const suffix = (v: string) => v.replace(/^[^-]*-\d*/, '').replace(/\d+$/, '');
      expect(p.version).not.toBe(p.current_version);
      expect(suffix(p.version)).toBe(suffix(p.current_version!));
    }
    expect(bumpRelease('2.34-0ubuntu3.2', createRng(1))).toMatch(/^2\.34-0ubuntu3\.[3-5]$/);
    expect(bumpRelease('1.2.3-4+deb12u1', createRng(1))).toMatch(/^1\.2\.3-4\+deb12u[2-4]$/);
    expect(bumpRelease('1.2.3-4.el9_4', createRng(1))).toMatch(/^1\.2\.3-[5-7]\.el9_4$/);
  });

  it('gives Windows KB updates and macOS its own updates, never a Linux version', () => {
    const windows = big.filter((m) => m.system.os_family === 'windows').flatMap((m) => m.patches);
    expect(
      windows.filter((p) => p.source.startsWith('windows_update:') && p.kb).every((p) => /^KB\d+$/.test(p.kb!)),
    ).toBe(true);
    const others = big.filter((m) => m.system.os_family !== 'linux');
    const versions = others.flatMap((m) => [...m.software.map((s) => s.version), ...m.patches.map((p) => p.version)]);
    expect(versions.some((v) => /ubuntu|deb\d|\.el\d/.test(v))).toBe(false);
    expect(
      big
        .filter((m) => m.system.os_family === 'mac')
        .flatMap((m) => m.patches)
        .some((p) => p.source.startsWith('softwareupdate:')),
    ).toBe(true);
  });
});

describe('hostnames', () => {
  it('are unique within a fleet and between fleets numbered apart', () => {
    const a = Array.from({ length: 600 }, (_, i) => generateMachine(1000, i, undefined, i));
    const b = Array.from({ length: 200 }, (_, i) => generateMachine(1001, i, undefined, 600 + i));
    const names = [...a, ...b].map((m) => m.system.hostname);
    expect(new Set(names).size).toBe(names.length);
    // The same machine whatever its hostname number: only the name changes.
    const renumbered = generateMachine(1001, 3, undefined, 603);
    expect({ ...renumbered, system: { ...renumbered.system, hostname: '', fqdn: '' } }).toEqual({
      ...generateMachine(1001, 3),
      system: { ...generateMachine(1001, 3).system, hostname: '', fqdn: '' },
    });
  });
});

describe('createRng', () => {
  it('repeats its sequence for a seed', () => {
    const a = createRng(5);
    const b = createRng(5);
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
  });
});
