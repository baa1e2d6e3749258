import { FEATURE_FLAGS } from '@patchwell/core/shell/flags';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../app/storage';
import { renderInShell } from '../../../test/render';
import { buildProfile, buildZone } from '../../../test/factories';
import { SSO_TEXTS } from '../sso.texts';
import { LegacySsoNotice } from './LegacySsoNotice';

describe('LegacySsoNotice', () => {
  const zone = buildZone({ id: 1, saml: { enabled: true, redirect: null } });
  const profile = buildProfile({
    orgs: [zone],
    features: { ...FEATURE_FLAGS, saml_migration_warning: true },
    is_global_admin: true,
  });
  const render = () =>
    renderInShell([{ path: '/dashboard', element: <LegacySsoNotice /> }], '/dashboard?o=1', { profile });

  beforeEach(() => window.sessionStorage.clear());

  it('shows the banner with its links, and the modal once per browser session', async () => {
    const first = render();
    expect(await screen.findByRole('dialog', { name: SSO_TEXTS.legacy.modalTitle })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(STORAGE_KEYS.legacySsoWarningShown)).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: SSO_TEXTS.legacy.dismiss }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent('Legacy single sign-on is deprecated');
    expect(screen.getAllByRole('link', { name: SSO_TEXTS.legacy.connectionsLink })[0]).toHaveAttribute(
      'href',
      '/global/setup/authentication?o=1',
    );
    first.unmount();

    render();
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
