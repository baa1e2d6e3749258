import type { Profile } from '@patchwell/core/auth/profile.schema';
import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { TEXTS } from '@patchwell/core/texts';
import { ROLE_GRANTS } from '@patchwell/core/zones/roles';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { canFor } from '../../../app/access';
import { DeviceRowActions } from '../../devices/components/DeviceRowActions';
import type { Device } from '../../devices/devices.types';
import type { DeviceActions } from '../../devices/useDeviceActions';
import { buildDevice, buildProfile, buildZone } from '../../../test/factories';
import { renderInShell } from '../../../test/render';

const flagsOn = { ...FEATURE_FLAGS, remote_control: true };
const actions = { start: vi.fn() } as unknown as DeviceActions;

function profileWith(overrides: { plan?: string; flag?: boolean; canControl?: boolean } = {}): Profile {
  const zone = buildZone({ id: 1, name: 'Acme', plan: overrides.plan ?? 'tier3' });
  const base = buildProfile({ orgs: [zone], features: { ...flagsOn, remote_control: overrides.flag ?? true } });
  if (overrides.canControl === false) {
    base.permissions = { '1': [...ROLE_GRANTS[1]].filter((p) => p !== 'Endpoint.control') };
  }
  return base;
}

async function openMenu(profile: Profile, device: Device) {
  renderInShell(
    [
      {
        path: '/devices',
        element: <DeviceRowActions zoneId={1} device={device} can={canFor(profile, 1)} actions={actions} />,
      },
    ],
    '/devices?o=1',
    { profile, zoneId: 1 },
  );
  await userEvent.click(await screen.findByRole('button', { name: /actions/i }));
}

const item = () => screen.findByRole('menuitem', { name: /^Remote control/ });

async function tooltipOf(profile: Profile, device: Device) {
  await openMenu(profile, device);
  const remote = await item();
  expect(remote).toHaveAttribute('aria-disabled', 'true');
  await userEvent.hover(remote);
  return (await screen.findByRole('tooltip')).textContent;
}

describe('the Remote control row action', () => {
  const ready = buildDevice({ id: 21, connected: true, initializing: false });

  it('opens the device’s remote-control page when everything allows it', async () => {
    await openMenu(profileWith(), ready);
    const remote = await item();
    expect(remote).not.toHaveAttribute('aria-disabled');
    expect(remote).toHaveAttribute('href', '/devices/21/remote-control?o=1');
  });

  it('is hidden while the remote-control flag is off', async () => {
    await openMenu(profileWith({ flag: false }), ready);
    await screen.findByRole('menuitem', { name: /export/i });
    expect(screen.queryByRole('menuitem', { name: /^Remote control/ })).toBeNull();
  });

  it('tells a user without the permission why it is disabled', async () => {
    expect(await tooltipOf(profileWith({ canControl: false }), ready)).toBe(
      'You don’t have the required permission to start a remote control session',
    );
  });

  it('asks for the Complete plan below tier 3', async () => {
    expect(await tooltipOf(profileWith({ plan: 'manage' }), ready)).toBe(
      'Upgrade to our Complete plan to enable this feature',
    );
  });

  it('says the device is offline', async () => {
    expect(await tooltipOf(profileWith(), buildDevice({ id: 22, connected: false }))).toBe('Device is offline');
  });

  it('says Patchwell is still initializing the device before its first inventory', async () => {
    const text = await tooltipOf(profileWith(), buildDevice({ id: 23, connected: true, initializing: true }));
    expect(text).toBe(TEXTS.remote.initializing);
    expect(text).toMatch(/^Patchwell /);
  });

  it('does nothing when a disabled item is clicked, and screen readers hear the reason', async () => {
    await openMenu(profileWith(), buildDevice({ id: 24, connected: false }));
    const remote = await item();
    expect(remote).toHaveAccessibleName('Remote control: Device is offline');
    await userEvent.click(remote);
    expect(actions.start).not.toHaveBeenCalled();
    expect(await item()).toBeInTheDocument();
  });
});
