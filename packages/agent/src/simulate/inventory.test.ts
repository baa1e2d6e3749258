import { ZInventoryBody } from '@patchwell/core/agent/agent-protocol.schema';
import { describe, expect, it } from 'vitest';
import { inventoryHash } from '../jobs/inventory.js';
import { generateMachine, simMachineId } from './inventory.js';
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

describe('createRng', () => {
  it('repeats its sequence for a seed', () => {
    const a = createRng(5);
    const b = createRng(5);
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
  });
});
