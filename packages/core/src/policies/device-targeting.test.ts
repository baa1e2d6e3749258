import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEVICE_FILTER_FIELDS, type DeviceFilter } from './device-filters.schema';
import { deviceFilterMatches, isTargeted, type PolicyTargets, type TargetableDevice } from './device-targeting';

const WEB1: TargetableDevice = {
  server_group_id: 1,
  tags: ['Prod', 'web'],
  hostname: 'web-01.example.com',
  ip_addrs: ['203.0.113.10'],
  ip_addrs_private: ['10.0.0.11'],
  os_family: 'linux',
  os_version: '12',
};
const LAPTOP: TargetableDevice = {
  server_group_id: 2,
  tags: [],
  hostname: 'LAPTOP-ANNA',
  ip_addrs: [],
  ip_addrs_private: ['192.168.1.20'],
  os_family: 'mac',
  os_version: '15.1',
};

const policy = (server_groups: number[], device_filters: DeviceFilter[] = [], enabled = true): PolicyTargets => ({
  server_groups,
  configuration: { device_filters_enabled: enabled, device_filters },
});

describe('isTargeted', () => {
  it("targets the devices of the policy's groups only", () => {
    expect(isTargeted(policy([1]), WEB1)).toBe(true);
    expect(isTargeted(policy([1]), LAPTOP)).toBe(false);
    expect(isTargeted(policy([]), WEB1)).toBe(false);
  });

  it('ignores filters while they are disabled', () => {
    const p = policy([1, 2], [{ field: 'tag', op: 'in', value: ['nothing'] }], false);
    expect(isTargeted(p, WEB1)).toBe(true);
  });

  it('requires every filter to hold (AND across filters)', () => {
    const p = policy(
      [1, 2],
      [
        { field: 'os_family', op: 'in', value: ['Linux'] },
        { field: 'hostname', op: 'like_any', value: ['web'] },
      ],
    );
    expect(isTargeted(p, WEB1)).toBe(true);
    expect(isTargeted(p, LAPTOP)).toBe(false);
    const q = policy([1], [...p.configuration.device_filters!, { field: 'tag', op: 'not_in', value: ['prod'] }]);
    expect(isTargeted(q, WEB1)).toBe(false);
  });
});

describe('deviceFilterMatches', () => {
  it('is: any value equals (OR within the values), ignoring case', () => {
    expect(deviceFilterMatches({ field: 'tag', op: 'in', value: ['staging', 'PROD'] }, WEB1)).toBe(true);
    expect(deviceFilterMatches({ field: 'tag', op: 'in', value: ['pro'] }, WEB1)).toBe(false);
    expect(deviceFilterMatches({ field: 'os_family', op: 'in', value: ['macOS'] }, LAPTOP)).toBe(true);
    expect(deviceFilterMatches({ field: 'os_version', op: 'in', value: ['15.1'] }, LAPTOP)).toBe(true);
  });

  it('is not: no value equals; a device without tags is not any tag', () => {
    expect(deviceFilterMatches({ field: 'tag', op: 'not_in', value: ['prod'] }, WEB1)).toBe(false);
    expect(deviceFilterMatches({ field: 'tag', op: 'not_in', value: ['prod'] }, LAPTOP)).toBe(true);
  });

  it('contains and does not contain test substrings', () => {
    expect(deviceFilterMatches({ field: 'hostname', op: 'like_any', value: ['laptop-'] }, LAPTOP)).toBe(true);
    expect(deviceFilterMatches({ field: 'hostname', op: 'not_like_any', value: ['example.com'] }, WEB1)).toBe(false);
    expect(deviceFilterMatches({ field: 'os_version', op: 'like_any', value: ['15.'] }, LAPTOP)).toBe(true);
  });

  it('reads public and private addresses for ip_addr', () => {
    expect(deviceFilterMatches({ field: 'ip_addr', op: 'in', value: ['10.0.0.11'] }, WEB1)).toBe(true);
    expect(deviceFilterMatches({ field: 'ip_addr', op: 'like_any', value: ['203.0.113.'] }, WEB1)).toBe(true);
    expect(deviceFilterMatches({ field: 'ip_addr', op: 'like_any', value: ['10.0.'] }, LAPTOP)).toBe(false);
  });

  it('negative operators are exact complements (property)', () => {
    const word = fc.constantFrom('a', 'ab', 'B', '10.0', 'linux', 'mac', '12');
    const arbDevice = fc.record({
      server_group_id: fc.constant(1),
      tags: fc.array(word, { maxLength: 3 }),
      hostname: word,
      ip_addrs: fc.array(word, { maxLength: 2 }),
      ip_addrs_private: fc.array(word, { maxLength: 2 }),
      os_family: fc.constantFrom('linux' as const, 'mac' as const, 'windows' as const),
      os_version: word,
    });
    fc.assert(
      fc.property(
        arbDevice,
        fc.constantFrom(...DEVICE_FILTER_FIELDS),
        fc.array(word, { minLength: 1, maxLength: 3 }),
        (device, field, value) => {
          const is = deviceFilterMatches({ field, op: 'in', value }, device);
          const contains = deviceFilterMatches({ field, op: 'like_any', value }, device);
          expect(deviceFilterMatches({ field, op: 'not_in', value }, device)).toBe(!is);
          expect(deviceFilterMatches({ field, op: 'not_like_any', value }, device)).toBe(!contains);
          // Equal implies contains.
          if (is) expect(contains).toBe(true);
        },
      ),
    );
  });
});
