import { Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { LinkTabs } from '../../ui/LinkTabs';

/** /global/setup/*: the setup tabs (spec A section 2), then the tab's page. */
export function GlobalSetupLayout() {
  const { zoneId } = useShell();
  const z = (path: string) => withZone(path, zoneId);
  const tabs = [
    { label: 'Zones', to: z(PATHS.globalZones) },
    { label: 'Roles and Permissions', to: z(PATHS.globalRoles) },
    { label: 'Users', to: z(PATHS.globalUsers) },
    { label: 'Authentication', to: z(PATHS.connectionList) },
    { label: 'Domains', to: z(PATHS.globalDomains) },
    { label: 'Settings', to: z(PATHS.globalSettings) },
  ];
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        Setup and Configuration
      </Title>
      <LinkTabs tabs={tabs} label={CONSOLE_TEXTS.global.tabsLabel} />
      <Outlet />
    </Stack>
  );
}
