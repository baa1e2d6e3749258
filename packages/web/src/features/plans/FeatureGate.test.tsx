import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { FeatureGate } from './components/FeatureGate';
import { gatedPage, policyTypeGatedPage } from './gated-page';

const DAY = 86_400_000;
const past = new Date(Date.now() - DAY).toISOString();
const future = new Date(Date.now() + 5 * DAY).toISOString();

function profileWith(zone: ProfileOrg, overrides: Partial<Profile> = {}): Profile {
  return buildProfile({ orgs: [zone], ...overrides });
}

function renderGate(profile: Profile, element: React.ReactNode, path = '/settings/keys?o=1') {
  return renderInShell(
    [
      { path: 'settings/keys', element },
      { path: 'settings/billing', element: <p>Billing page</p> },
      { path: 'manage/policies/create', element },
    ],
    path,
    { profile, zoneId: profile.orgs[0]!.id },
  );
}

const KeysStandIn = () => <p>Your API keys</p>;

describe('FeatureGate', () => {
  it("shows 'Feature Unavailable' with the plan that brings the feature instead of the page", async () => {
    const zone = buildZone({ id: 1, plan: 'patch' });
    renderGate(
      profileWith(zone),
      <FeatureGate feature="api_access">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
    expect(
      screen.getByText('API access is not included in your plan. Upgrade to the Standard plan to enable this feature.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Your API keys')).not.toBeInTheDocument();
    expect(screen.queryByText('Trial Expired')).not.toBeInTheDocument();
  });

  it('opens billing from Upgrade Now for a user with Billing.read', async () => {
    const zone = buildZone({ id: 1, plan: 'manage' });
    renderGate(
      profileWith(zone),
      <FeatureGate feature="remote_control">
        <KeysStandIn />
      </FeatureGate>,
    );
    const upgrade = await screen.findByRole('link', { name: 'Upgrade Now' });
    expect(upgrade).toHaveAttribute('href', '/settings/billing?o=1');
    expect(screen.getByText(/Upgrade to the Complete plan/)).toBeInTheDocument();
    await userEvent.click(upgrade);
    expect(await screen.findByText('Billing page')).toBeInTheDocument();
  });

  it('offers no Upgrade Now to a user without Billing.read, and says whom to ask', async () => {
    const zone = buildZone({ id: 1, plan: 'patch' });
    renderGate(
      profileWith(zone, { permissions: { '1': ['Endpoint.read', 'Organization.read'] } }),
      <FeatureGate feature="worklets">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upgrade Now' })).not.toBeInTheDocument();
    expect(screen.getByText('Ask a user with billing rights in this zone to upgrade.')).toBeInTheDocument();
  });

  it("says 'Trial Expired' when the ended trial is what took the feature away", async () => {
    const zone = buildZone({ id: 1, plan: 'patch', trial_end_time: past, trial_expired: true });
    renderGate(
      profileWith(zone),
      <FeatureGate feature="sso">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByText('Trial Expired')).toBeInTheDocument();
    expect(
      screen.getByText('Your trial has ended. Upgrade to keep using the features of your plan.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upgrade Now' })).toBeInTheDocument();
  });

  it('shows the page to a Basic zone on an unexpired trial, and to a zone on the plan', async () => {
    const trial = buildZone({ id: 1, plan: 'patch', trial_end_time: future });
    const { unmount } = renderGate(
      profileWith(trial),
      <FeatureGate feature="remote_control">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByText('Your API keys')).toBeInTheDocument();
    expect(screen.queryByText('Feature Unavailable')).not.toBeInTheDocument();
    unmount();
    renderGate(
      profileWith(buildZone({ id: 1, plan: 'manage' })),
      <FeatureGate feature="api_access">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByText('Your API keys')).toBeInTheDocument();
  });

  it('keeps the page under the notice in the notice variant', async () => {
    renderGate(
      profileWith(buildZone({ id: 1, plan: 'patch' })),
      <FeatureGate feature="api_access" variant="notice">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
    expect(screen.getByText('Your API keys')).toBeInTheDocument();
  });

  it("reads an account feature from the zone's parent organisation", async () => {
    // The zone itself is on Complete, the account (its parent) on Standard: SSO is the account's.
    const zone = buildZone({ id: 1, plan: 'tier3', parent_id: 9 });
    const parentOrg = [{ id: 9, plan: 'manage', trial_end_time: null, trial_expired: false }];
    const { unmount } = renderGate(
      profileWith(zone, { parent_org: parentOrg }),
      <FeatureGate feature="sso" scope="account">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
    unmount();
    renderGate(
      profileWith(zone, { parent_org: parentOrg }),
      <FeatureGate feature="sso">
        <KeysStandIn />
      </FeatureGate>,
    );
    expect(await screen.findByText('Your API keys')).toBeInTheDocument();
  });
});

describe('gated routes', () => {
  it('puts a lazily loaded page behind its feature', async () => {
    const profile = profileWith(buildZone({ id: 1, plan: 'patch' }));
    renderInShell(
      [
        {
          path: 'settings/keys',
          lazy: gatedPage(
            'api_access',
            async () => ({ KeysStandIn }),
            (m) => m.KeysStandIn,
            { variant: 'notice' },
          ),
        },
      ],
      '/settings/keys?o=1',
      { profile, zoneId: 1 },
    );
    expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
    expect(screen.getByText('Your API keys')).toBeInTheDocument();
  });

  it.each([
    { type: 'custom', plan: 'patch', isRefused: true },
    { type: 'required_software', plan: 'patch', isRefused: true },
    { type: 'custom', plan: 'manage', isRefused: false },
    { type: 'patch', plan: 'patch', isRefused: false },
  ] as const)('creating a $type policy on $plan: refused $isRefused', async ({ type, plan, isRefused }) => {
    const profile = profileWith(buildZone({ id: 1, plan }));
    const CreateStandIn = () => <p>Policy form</p>;
    renderInShell(
      [
        {
          path: 'manage/policies/create',
          lazy: policyTypeGatedPage(
            async () => ({ CreateStandIn }),
            (m) => m.CreateStandIn,
          ),
        },
      ],
      `/manage/policies/create?o=1&type=${type}`,
      { profile, zoneId: 1 },
    );
    if (isRefused) {
      expect(await screen.findByRole('heading', { name: 'Feature Unavailable' })).toBeInTheDocument();
      expect(screen.queryByText('Policy form')).not.toBeInTheDocument();
    } else {
      expect(await screen.findByText('Policy form')).toBeInTheDocument();
      expect(screen.queryByText('Feature Unavailable')).not.toBeInTheDocument();
    }
  });
});
