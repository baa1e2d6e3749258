import type { ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { Zone } from '@patchwell/core/zones/zones.schema';
import { Box, Container, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconBuildingOff } from '@tabler/icons-react';
import { lazy, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { isFeatureOn } from '../../app/access';
import { PATHS } from '../../app/paths';
import { signOut } from '../../app/session';
import { useShell } from '../../app/shell-context';
import { rememberLastRoute } from '../../app/storage';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { EmptyStatePage } from '../../ui/EmptyStatePage';
import { MountWhenOpened } from '../../ui/MountWhenOpened';
import { profileQuery } from '../auth/session.api';
import { AlertBanners } from '../banners/AlertBanners';
import { UnsupportedBrowserBanner } from '../banners/UnsupportedBrowserBanner';
import { LegacySsoNotice } from '../sso/components/LegacySsoNotice';
import { useClientConfig } from './config.api';
import classes from './ShellLayout.module.css';
import { useBanners } from './shell.api';
import { TopNav } from './TopNav';

// The dialogs load when first opened, not with every signed-in page: the create-zone form
// (react-hook-form, the zone schema), and Mantine's Modal (with its scroll lock) for both.
const CreateZoneDialog = lazy(() => import('../zones/CreateZoneDialog').then((m) => ({ default: m.CreateZoneDialog })));
const ReauthenticateDialog = lazy(() =>
  import('./ReauthenticateDialog').then((m) => ({ default: m.ReauthenticateDialog })),
);

/** Switching needs a fresh login when the flag is on and either zone uses SAML (spec A section 4). */
export function needsReauthentication(isFlagOn: boolean, current: ProfileOrg | undefined, target: ProfileOrg): boolean {
  return isFlagOn && current?.id !== target.id && (target.saml.enabled || !!current?.saml.enabled);
}

/** The signed-in layout: top navigation, banners, the page, and the footer. */
export function ShellLayout() {
  const { profile, zone, zoneId } = useShell();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useClientConfig();
  const banners = useBanners();
  const [isCreateZoneOpen, setCreateZoneOpen] = useState(false);
  const [reauthTarget, setReauthTarget] = useState<ProfileOrg | null>(null);
  const isGlobalView = location.pathname === PATHS.global || location.pathname.startsWith(`${PATHS.global}/`);

  useEffect(() => {
    rememberLastRoute(location.pathname + location.search);
  }, [location.pathname, location.search]);

  const onSwitchZone = (target: ProfileOrg) => {
    if (target.id === zoneId) return;
    if (needsReauthentication(isFeatureOn(profile, 'zone_reauthentication'), zone, target)) {
      setReauthTarget(target);
      return;
    }
    navigate(withZone(location.pathname + location.search, target.id));
  };

  // The new zone is in the profile only after a reload; then switch to it, keeping the route.
  const onZoneCreated = async (created: Zone) => {
    setCreateZoneOpen(false);
    await queryClient.fetchQuery({ ...profileQuery(created.id), staleTime: 0 }).catch(() => undefined);
    navigate(withZone(location.pathname + location.search, created.id));
  };

  const onContinueToLogin = () => {
    const target = reauthTarget;
    setReauthTarget(null);
    if (!target) return;
    if (target.saml.enabled && target.saml.redirect) {
      window.location.assign(target.saml.redirect);
      return;
    }
    void signOut(navigate, { zoneId: target.id });
  };

  return (
    <>
      <a href="#main" className="skip-link">
        {CONSOLE_TEXTS.skipToContent}
      </a>
      <header className={classes.header}>
        <TopNav
          profile={profile}
          zone={zone}
          isGlobalView={isGlobalView}
          config={config}
          onSwitchZone={onSwitchZone}
          onOpenZone={(target) => navigate(withZone(PATHS.dashboard, target.id))}
          onCreateZone={() => setCreateZoneOpen(true)}
          onLogout={() => void signOut(navigate)}
        />
      </header>
      <main className={classes.main} id="main">
        <Box component="section" aria-label={CONSOLE_TEXTS.banners.region}>
          <UnsupportedBrowserBanner />
          <AlertBanners banners={banners.data} />
          <LegacySsoNotice />
        </Box>
        <Container size="xl" w="100%" py="lg" style={{ flex: 1 }}>
          {zone || isGlobalView ? (
            <Outlet />
          ) : (
            <EmptyStatePage
              title={CONSOLE_TEXTS.zones.noZone}
              description={`${CONSOLE_TEXTS.zones.noZones} ${CONSOLE_TEXTS.zones.noZonesDescription}`}
              icon={<IconBuildingOff size={32} stroke={1.5} aria-hidden="true" />}
            />
          )}
        </Container>
      </main>
      {/* Outside <main> so that it is the page's contentinfo landmark. */}
      <Box component="footer" py="md" px="lg" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Text size="xs" c="dimmed">
          {CONSOLE_TEXTS.footer}
        </Text>
      </Box>

      {zoneId !== undefined && (
        <MountWhenOpened opened={isCreateZoneOpen}>
          <CreateZoneDialog
            opened={isCreateZoneOpen}
            zoneId={zoneId}
            onClose={() => setCreateZoneOpen(false)}
            onCreated={onZoneCreated}
          />
        </MountWhenOpened>
      )}

      <MountWhenOpened opened={reauthTarget !== null}>
        <ReauthenticateDialog
          opened={reauthTarget !== null}
          onCancel={() => setReauthTarget(null)}
          onContinue={onContinueToLogin}
        />
      </MountWhenOpened>
    </>
  );
}
