import { describe, expect, it } from 'vitest';
import { buildProfile, buildZone } from '../test/factories';
import { chooseZone, parseZoneId, requestedZoneId, withZone, zoneRoleName } from './zone';

const alpha = buildZone({ id: 11, name: 'Alpha' });
const beta = buildZone({ id: 22, name: 'Beta' });
const gamma = buildZone({ id: 33, name: 'Gamma' });
const orgs = [alpha, beta, gamma];

describe('chooseZone', () => {
  it('takes the requested zone when the user has it', () => {
    expect(chooseZone(orgs, 22, 33)).toBe(beta);
  });

  it('falls back to the stored current org when the requested zone is not the user’s', () => {
    expect(chooseZone(orgs, 999, 33)).toBe(gamma);
  });

  it('falls back to the first zone when neither the requested nor the stored zone is the user’s', () => {
    expect(chooseZone(orgs, 999, 998)).toBe(alpha);
    expect(chooseZone(orgs, undefined, undefined)).toBe(alpha);
  });

  it('finds no zone for a user without zones', () => {
    expect(chooseZone([], 1, 2)).toBeUndefined();
  });
});

describe('zone id in the URL', () => {
  it('reads o as a positive integer and ignores anything else', () => {
    expect(parseZoneId('42')).toBe(42);
    expect(parseZoneId('0')).toBeUndefined();
    expect(parseZoneId('4.2')).toBeUndefined();
    expect(parseZoneId('abc')).toBeUndefined();
    expect(parseZoneId(null)).toBeUndefined();
  });

  it('accepts org as an alias of o, o winning', () => {
    expect(requestedZoneId(new URLSearchParams('org=5'))).toBe(5);
    expect(requestedZoneId(new URLSearchParams('o=6&org=5'))).toBe(6);
  });

  it('sets o on a path, keeping its other parameters and dropping the org alias', () => {
    expect(withZone('/devices', 3)).toBe('/devices?o=3');
    expect(withZone('/devices?page=2&org=9', 3)).toBe('/devices?page=2&o=3');
    expect(withZone('/devices?o=1', 3)).toBe('/devices?o=3');
  });
});

describe('zoneRoleName', () => {
  it('names the user’s role in the zone, and Global Administrator for global administrators', () => {
    const profile = buildProfile({ orgs: [alpha] });
    expect(zoneRoleName(profile, 11)).toBe('Zone Administrator');
    expect(zoneRoleName({ ...profile, is_global_admin: true }, 11)).toBe('Global Administrator');
  });
});
