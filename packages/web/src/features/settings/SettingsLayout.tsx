import { Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { canFor, canSeeApns, canSeeSecurity, isFeatureOn } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { LinkTabs, type LinkTab } from '../../ui/LinkTabs';

/** /settings/*: the settings tabs the user may open, then the tab's page. */
export function SettingsLayout() {
  const { profile, zone, zoneId } = useShell();
  const can = canFor(profile, zoneId);
  const z = (path: string) => withZone(path, zoneId);
  const tabs: LinkTab[] = [{ label: 'Profile', to: z(PATHS.profile) }];
  if (can('Billing', 'read')) tabs.push({ label: 'Billing', to: z(PATHS.billing) });
  if (can('Users', 'read')) tabs.push({ label: 'Users', to: z(PATHS.users) });
  tabs.push({ label: 'Keys', to: z(PATHS.keys) });
  if (can('Organization', 'manage')) tabs.push({ label: 'Webhooks', to: z(PATHS.webhooks) });
  if (canSeeSecurity(profile, zoneId, zone?.disabled ?? false)) tabs.push({ label: 'Security', to: z(PATHS.security) });
  if (canSeeApns(profile, zoneId)) tabs.push({ label: 'APNS Settings', to: z(PATHS.apnsSettings) });
  if (isFeatureOn(profile, 'remote_control')) {
    tabs.push({ label: CONSOLE_TEXTS.remote.settingsTab, to: z(PATHS.remoteSettings) });
  }
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        Settings
      </Title>
      <LinkTabs tabs={tabs} label={CONSOLE_TEXTS.settings.tabsLabel} />
      <Outlet />
    </Stack>
  );
}
