import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildClientConfig, buildProfile, buildZone } from '../../test/factories';
import { renderAt } from '../../test/render';
import { canOfferCreateZone } from '../../app/access';
import { accountMenuItems, mainNavItems } from './nav-items';
import { TopNav, type TopNavProps } from './TopNav';

const config = buildClientConfig({
  version: '0.1.0',
  help_links: [
    { label: 'Knowledge Base', url: 'https://help.example/kb' },
    { label: 'Release Notes', url: 'https://help.example/notes' },
    { label: 'Community', url: 'https://help.example/community' },
    { label: 'API Reference Guide', url: 'https://help.example/api' },
    { label: 'University', url: 'https://help.example/university' },
  ],
});

function renderNav(props: Partial<TopNavProps> = {}, path = '/devices?o=1') {
  const profile = props.profile ?? buildProfile();
  const all: TopNavProps = {
    profile,
    zone: profile.orgs[0],
    isGlobalView: false,
    config,
    onSwitchZone: vi.fn(),
    onOpenZone: vi.fn(),
    onCreateZone: vi.fn(),
    onLogout: vi.fn(),
    ...props,
  };
  renderAt(<TopNav {...all} />, path);
  return all;
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('top navigation', () => {
  it('links Devices, Software, Manage and Reports, each carrying the zone', () => {
    renderNav();
    const nav = mainNav();
    expect(within(nav).getByRole('link', { name: 'Devices' })).toHaveAttribute('href', '/devices?o=1');
    expect(within(nav).getByRole('link', { name: 'Software' })).toHaveAttribute('href', '/software?o=1');
    expect(within(nav).getByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/reports?o=1');
    expect(within(nav).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Patchwell home' })).toHaveAttribute('href', '/dashboard?o=1');
  });

  it('offers Remediations under Manage while automated vulnerability remediation is on', async () => {
    renderNav();
    await userEvent.click(within(mainNav()).getByRole('button', { name: 'Manage' }));
    const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
    expect(items).toEqual(['Policies', 'Groups', 'Remediations', 'Worklet Catalog']);
  });

  it('offers Tasks instead when automated vulnerability remediation is off', () => {
    const base = buildProfile();
    const profile = buildProfile({ features: { ...base.features, automated_vulnerability_remediation: false } });
    const manage = mainNavItems(profile, 1).find((i) => i.children)!;
    expect(manage.children!.map((c) => c.label)).toEqual(['Policies', 'Groups', 'Tasks', 'Worklet Catalog']);
    expect(manage.children![2]!.to).toBe('/manage/tasks?o=1');
  });

  it('hides the links on the global view', () => {
    renderNav({ isGlobalView: true }, '/global/setup?o=1');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Zone: Global view/ })).toBeInTheDocument();
  });

  it('puts the links behind a burger button for small screens', () => {
    renderNav();
    expect(screen.getByRole('button', { name: 'Open navigation' })).toBeInTheDocument();
  });

  it("shows 'Zone disabled' with a lock icon when the current zone is disabled", () => {
    const zone = buildZone({ id: 1, name: 'Acme', disabled: true });
    renderNav({ profile: buildProfile({ orgs: [zone] }), zone });
    expect(screen.getByText('Zone disabled')).toBeInTheDocument();
  });

  it('counts down a trial and offers Upgrade Now to users who may read billing', () => {
    const end = new Date(Date.now() + 3 * 86_400_000 - 60_000).toISOString();
    const base = buildProfile();
    const profile = buildProfile({ parent_org: [{ id: 1, plan: 'tier3', trial_end_time: end, trial_expired: false }] });
    renderNav({ profile, zone: base.orgs[0] });
    expect(screen.getByText('4 days left in trial')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/settings/billing?o=1');
  });

  it("shows 'Trial Expired' without Upgrade Now for users without Billing.read", () => {
    const profile = buildProfile({
      parent_org: [{ id: 1, plan: 'tier3', trial_end_time: '2020-01-01T00:00:00Z', trial_expired: true }],
      permissions: { '1': ['Endpoint.read'] },
    });
    renderNav({ profile });
    expect(screen.getByText('Trial Expired')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade Now' })).not.toBeInTheDocument();
  });

  it('opens the five help links in a new tab', async () => {
    renderNav();
    await userEvent.click(screen.getByRole('button', { name: 'Help' }));
    const links = await screen.findAllByRole('menuitem');
    expect(links.map((l) => l.textContent)).toEqual([
      'Knowledge Base',
      'Release Notes',
      'Community',
      'API Reference Guide',
      'University',
    ]);
    for (const link of links) expect(link).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('href', 'https://help.example/kb');
  });

  it('labels Profile with the full name and ends the account menu with Logout', async () => {
    const props = renderNav();
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    const items = (await screen.findAllByRole('menuitem')).map((i) => i.textContent);
    expect(items).toEqual(['Ada Lovelace', 'Billing', 'Users', 'Keys', 'Logout']);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    expect(props.onLogout).toHaveBeenCalled();
  });

  it('shows Billing, Users, Security and APNS settings only with their permissions and flags', () => {
    const base = buildProfile();
    const readOnly = buildProfile({ permissions: { '1': ['Endpoint.read', 'Report.read'] } });
    expect(accountMenuItems(readOnly, 1, false).map((i) => i.label)).toEqual(['Ada Lovelace', 'Keys']);

    const flagsOn = { ...base.features, auth_milestone_2: true, configurations_routes: true };
    const admin = buildProfile({ features: flagsOn });
    expect(accountMenuItems(admin, 1, false).map((i) => i.label)).toEqual([
      'Ada Lovelace',
      'Billing',
      'Users',
      'Keys',
      'Security',
      'APNS Settings',
    ]);
    // Security is hidden in a disabled zone, and for SAML-only users without Organization.manage.
    expect(accountMenuItems(admin, 1, true).map((i) => i.label)).not.toContain('Security');
    const samlReader = buildProfile({ features: flagsOn, saml_enabled: true, permissions: { '1': ['Billing.read'] } });
    expect(accountMenuItems(samlReader, 1, false).map((i) => i.label)).toEqual(['Ada Lovelace', 'Billing', 'Keys']);
  });

  it("links 'manage zones and users' for global administrators with an account", async () => {
    renderNav({ profile: buildProfile({ is_global_admin: true, account_rbac_role: 'global-admin' }) });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Acme/ }));
    expect(await screen.findByRole('link', { name: 'manage zones and users' })).toHaveAttribute(
      'href',
      '/global/setup?o=1',
    );
    expect(screen.queryByRole('button', { name: 'Create New Zone' })).not.toBeInTheDocument();
  });

  it("offers 'Create New Zone' to users without an account who hold Organization.create", async () => {
    const zone = buildZone({ id: 1, name: 'Solo' });
    const props = renderNav({
      profile: buildProfile({ orgs: [zone], account_id: null, permissions: { '1': ['Organization.create'] } }),
      zone,
    });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Solo/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create New Zone' }));
    expect(props.onCreateZone).toHaveBeenCalled();
  });

  it("offers 'Create New Zone' to account users with Organization.create when the parent is on Complete", async () => {
    const acme = buildZone({ id: 1, name: 'Acme', parent_id: 1 });
    const beta = buildZone({ id: 2, name: 'Beta', parent_id: 1 });
    const props = renderNav({ profile: buildProfile({ orgs: [acme, beta] }), zone: acme });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Acme/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create New Zone' }));
    expect(props.onCreateZone).toHaveBeenCalled();
  });

  it('offers no zone creation without Organization.create or when the tier rule fails', () => {
    const acme = buildZone({ id: 1, name: 'Acme', parent_id: 1 });
    const beta = buildZone({ id: 2, name: 'Beta', parent_id: 1 });
    const now = Date.parse('2026-06-01T00:00:00Z');
    const standard = [{ id: 1, plan: 'manage', trial_end_time: null, trial_expired: false }];
    const onTrial = [{ id: 1, plan: 'patch', trial_end_time: '2026-06-10T00:00:00Z', trial_expired: false }];
    const expired = [{ id: 1, plan: 'patch', trial_end_time: '2026-05-10T00:00:00Z', trial_expired: true }];
    expect(canOfferCreateZone(buildProfile({ orgs: [acme, beta] }), acme, now)).toBe(true);
    expect(canOfferCreateZone(buildProfile({ orgs: [acme, beta], parent_org: standard }), acme, now)).toBe(false);
    expect(canOfferCreateZone(buildProfile({ orgs: [acme], parent_org: onTrial }), acme, now)).toBe(true);
    expect(canOfferCreateZone(buildProfile({ orgs: [acme], parent_org: expired }), acme, now)).toBe(false);
    const reader = buildProfile({ orgs: [acme, beta], permissions: { '1': ['Organization.read'] } });
    expect(canOfferCreateZone(reader, acme, now)).toBe(false);
    const globalAdmin = buildProfile({ orgs: [acme, beta], is_global_admin: true, account_rbac_role: 'global-admin' });
    expect(canOfferCreateZone(globalAdmin, acme, now)).toBe(false);
    // A top-level zone is its own parent for the tier rule.
    const top = buildZone({ id: 5, name: 'Top', parent_id: null, plan: 'tier3' });
    expect(canOfferCreateZone(buildProfile({ orgs: [top], parent_org: [] }), top, now)).toBe(true);
  });

  it('lists no zones for a user with neither multi-org nor an account', async () => {
    const zone = buildZone({ id: 1, name: 'Solo' });
    renderNav({ profile: buildProfile({ orgs: [zone], account_id: null }), zone });
    await userEvent.click(screen.getByRole('button', { name: /Zone: Solo/ }));
    expect(screen.queryByRole('list', { name: 'Select a zone' })).not.toBeInTheDocument();
  });
});
