import type { Profile, ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Anchor, Box, Burger, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconLock } from '@tabler/icons-react';
import { lazy } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { canAccessGlobal, canFor, canOfferCreateZone, hasZoneSwitcher } from '../../app/access';
import { PATHS } from '../../app/paths';
import { parentOrgOf, withZone, zoneRoleName } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { Logo } from '../../ui/Logo';
import { ActionMenu } from '../../ui/menu/ActionMenu';
import { MountWhenOpened } from '../../ui/MountWhenOpened';
import { AccountMenu } from './AccountMenu';
import { HelpMenu } from './HelpMenu';
import { accountMenuItems, isUnder, mainNavItems, type NavItem } from './nav-items';
import classes from './TopNav.module.css';
import { TrialCountdown } from './TrialCountdown';
import { ZoneMenu } from './ZoneMenu';

// Below the medium breakpoint only, and only once the burger is pressed: the drawer (Mantine's
// Drawer, with its scroll lock) is not part of every signed-in page's first download.
const MobileNavDrawer = lazy(() => import('./MobileNavDrawer').then((m) => ({ default: m.MobileNavDrawer })));

export type TopNavProps = {
  profile: Profile;
  zone: ProfileOrg | undefined;
  isGlobalView: boolean;
  config: ClientConfig | undefined;
  /** Organisation menu: switch to a zone, keeping the route. */
  onSwitchZone: (zone: ProfileOrg) => void;
  /** Global view: open a zone's dashboard. */
  onOpenZone: (zone: ProfileOrg) => void;
  onCreateZone: () => void;
  onLogout: () => void;
};

function DesktopLinks({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  return (
    <Group gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {items.map((item) => (
        <li key={item.label}>
          {item.children ? (
            <ActionMenu
              position="bottom-start"
              width={220}
              target={
                <button type="button" className={classes.link} data-active={isUnder(pathname, item) || undefined}>
                  {item.label}
                  <IconChevronDown size={14} aria-hidden="true" />
                </button>
              }
              entries={() => (item.children ?? []).map((child) => ({ label: child.label, to: child.to }))}
            />
          ) : (
            <NavLink to={item.to} className={classes.link}>
              {item.label}
            </NavLink>
          )}
        </li>
      ))}
    </Group>
  );
}

/**
 * The top navigation bar (spec A section 2). Links are hidden on the global view; below
 * the medium breakpoint they move into a drawer behind a burger button.
 */
export function TopNav({
  profile,
  zone,
  isGlobalView,
  config,
  onSwitchZone,
  onOpenZone,
  onCreateZone,
  onLogout,
}: TopNavProps) {
  const [isDrawerOpen, drawer] = useDisclosure(false);
  const zoneId = zone?.id;
  const can = canFor(profile, zoneId);
  const items = mainNavItems(profile, zoneId);
  const showLinks = !isGlobalView && zone !== undefined;
  const role = zoneRoleName(profile, zoneId);
  const trial = parentOrgOf(profile, zone) ?? zone;

  const orgActions = canAccessGlobal(profile) ? (
    <Anchor
      component={Link}
      to={withZone(PATHS.setupAndConfiguration, zoneId)}
      size="sm"
      px="xs"
      py={6}
      display="block"
    >
      {TEXTS.zones.manageLink}
    </Anchor>
  ) : canOfferCreateZone(profile, zone) ? (
    <Button variant="subtle" size="compact-sm" onClick={onCreateZone} fullWidth justify="flex-start">
      {TEXTS.zones.createNew}
    </Button>
  ) : undefined;

  return (
    <div className={classes.bar}>
      {showLinks && (
        <Burger
          hiddenFrom="md"
          size="sm"
          opened={isDrawerOpen}
          onClick={drawer.toggle}
          aria-label={isDrawerOpen ? CONSOLE_TEXTS.nav.closeMenu : CONSOLE_TEXTS.nav.openMenu}
        />
      )}
      <Anchor
        component={Link}
        to={withZone(PATHS.dashboard, zoneId)}
        aria-label={CONSOLE_TEXTS.homeLink}
        underline="never"
        mr="md"
      >
        {/* On a phone the mark alone leaves room for the zone, help and account menus. */}
        <Box visibleFrom="sm">
          <Logo />
        </Box>
        <Box hiddenFrom="sm">
          <Logo withWord={false} />
        </Box>
      </Anchor>
      {showLinks && (
        <Box component="nav" aria-label={CONSOLE_TEXTS.nav.label} visibleFrom="md">
          <DesktopLinks items={items} />
        </Box>
      )}
      {/* Shrinks (the zone name truncates) so that Help and the account menu stay on screen. */}
      <Group gap="sm" ml="auto" wrap="nowrap" miw={0}>
        {!isGlobalView && (
          <Box visibleFrom="lg">
            <TrialCountdown
              trial={trial}
              billingPath={can('Billing', 'read') ? withZone(PATHS.billing, zoneId) : undefined}
            />
          </Box>
        )}
        {!isGlobalView && zone?.disabled && (
          <Group gap={4} wrap="nowrap" className={classes.notice}>
            <IconLock size={16} aria-hidden="true" />
            <Text size="sm" fw={600}>
              {TEXTS.zones.disabled}
            </Text>
          </Group>
        )}
        {isGlobalView ? (
          <ZoneMenu
            label={CONSOLE_TEXTS.zones.globalView}
            sublabel={CONSOLE_TEXTS.zones.selectZone}
            zones={profile.orgs}
            currentZoneId={zoneId}
            onSelect={onOpenZone}
          />
        ) : (
          <ZoneMenu
            label={zone?.name ?? CONSOLE_TEXTS.zones.noZone}
            sublabel={role ? TEXTS.zones.role(role) : undefined}
            zones={profile.orgs}
            showList={hasZoneSwitcher(profile)}
            currentZoneId={zoneId}
            onSelect={onSwitchZone}
            actions={orgActions}
          />
        )}
        <HelpMenu config={config} />
        <AccountMenu items={accountMenuItems(profile, zoneId, zone?.disabled ?? false)} onLogout={onLogout} />
      </Group>
      {showLinks && (
        <MountWhenOpened opened={isDrawerOpen}>
          <MobileNavDrawer opened={isDrawerOpen} onClose={drawer.close} items={items} />
        </MountWhenOpened>
      )}
    </div>
  );
}
