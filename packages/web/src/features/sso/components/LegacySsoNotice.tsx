import { Anchor, Group } from '@mantine/core';
import { IconShieldExclamation } from '@tabler/icons-react';
import { lazy, useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { canAccessGlobal } from '../../../app/access';
import { PATHS } from '../../../app/paths';
import { useShell } from '../../../app/shell-context';
import { isLegacySsoWarningShown, rememberLegacySsoWarningShown } from '../../../app/storage';
import { withZone } from '../../../app/zone';
import { MountWhenOpened } from '../../../ui/MountWhenOpened';
import { StatusBanner } from '../../../ui/StatusBanner';
import { LEGACY_SSO_CUTOFF, legacySsoState } from '../legacy-sso';
import { SSO_TEXTS } from '../sso.texts';

const T = SSO_TEXTS.legacy;

// Shown once per browser session at most: Mantine's Modal loads only then.
const LegacySsoDialog = lazy(() => import('./LegacySsoDialog').then((m) => ({ default: m.LegacySsoDialog })));

/** The legacy single-sign-on deprecation banner and its once-per-session modal (spec A sections 2 and 4). */
export function LegacySsoNotice() {
  const { profile, zone, zoneId } = useShell();
  const { pathname } = useLocation();
  // Read once: the modal is remembered for the browser session as soon as it shows.
  const [wasShown] = useState(isLegacySsoWarningShown);
  const [isModalOpen, setModalOpen] = useState(true);
  const state = legacySsoState(profile, zone, zoneId, pathname, wasShown);
  useEffect(() => {
    if (state.showModal) rememberLegacySsoWarningShown();
  }, [state.showModal]);
  const isGlobal = canAccessGlobal(profile);
  const links = (
    <Group gap="md" mt={4}>
      <Anchor component={Link} to={withZone(PATHS.security, zoneId)} size="sm" onClick={() => setModalOpen(false)}>
        {T.securityLink}
      </Anchor>
      {isGlobal && (
        <Anchor
          component={Link}
          to={withZone(PATHS.connectionList, zoneId)}
          size="sm"
          onClick={() => setModalOpen(false)}
        >
          {T.connectionsLink}
        </Anchor>
      )}
    </Group>
  );
  const onCloseModal = () => setModalOpen(false);
  const isModalShown = state.showModal && isModalOpen;
  return (
    <>
      {state.showBanner && (
        <StatusBanner
          message={T.banner(LEGACY_SSO_CUTOFF)}
          color="orange"
          icon={<IconShieldExclamation size={18} aria-hidden="true" />}
        >
          {links}
        </StatusBanner>
      )}
      <MountWhenOpened opened={isModalShown}>
        <LegacySsoDialog opened={isModalShown} onClose={onCloseModal} links={links} />
      </MountWhenOpened>
    </>
  );
}
