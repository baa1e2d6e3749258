import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../app/paths';
import { buildProfile, buildZone } from '../../test/factories';
import { legacySsoState } from './legacy-sso';

/** Spec A sections 2 and 4: the legacy single-sign-on banner and its once-per-session modal. */
describe('legacy single-sign-on warnings', () => {
  const legacyZone = buildZone({ id: 1, saml: { enabled: true, redirect: null } });
  const plainZone = buildZone({ id: 1 });
  const flagOn = { ...FEATURE_FLAGS, saml_migration_warning: true };
  const admin = buildProfile({ orgs: [legacyZone], features: flagOn });
  const reader = buildProfile({ orgs: [legacyZone], features: flagOn, permissions: { '1': ['Report.read'] } });

  it('warns admins of a zone that still uses legacy single sign-on, the modal once a session', () => {
    expect(legacySsoState(admin, legacyZone, 1, PATHS.dashboard, false)).toEqual({ showBanner: true, showModal: true });
    expect(legacySsoState(admin, legacyZone, 1, PATHS.dashboard, true)).toEqual({ showBanner: true, showModal: false });
  });

  it('shows the banner on the security tab even without legacy single sign-on', () => {
    expect(legacySsoState(admin, plainZone, 1, PATHS.security, false)).toEqual({ showBanner: true, showModal: false });
    expect(legacySsoState(admin, plainZone, 1, PATHS.dashboard, false)).toEqual({
      showBanner: false,
      showModal: false,
    });
  });

  it('tells nobody when the flag is off, and no one who is not an admin', () => {
    const flagOff = buildProfile({ orgs: [legacyZone] });
    expect(legacySsoState(flagOff, legacyZone, 1, PATHS.security, false)).toEqual({
      showBanner: false,
      showModal: false,
    });
    expect(legacySsoState(reader, legacyZone, 1, PATHS.security, false)).toEqual({
      showBanner: false,
      showModal: false,
    });
    const globalAdmin = buildProfile({ orgs: [legacyZone], features: flagOn, is_global_admin: true, permissions: {} });
    expect(legacySsoState(globalAdmin, legacyZone, 1, PATHS.dashboard, false).showModal).toBe(true);
  });
});
