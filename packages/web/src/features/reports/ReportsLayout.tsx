import { Stack, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { LinkTabs } from '../../ui/LinkTabs';
import { reportLinks } from './report-links';

/** /reports/*: report tabs, then the report. */
export function ReportsLayout() {
  const { profile, zoneId } = useShell();
  const tabs = reportLinks(profile, zoneId).map(({ label, to }) => ({ label, to }));
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        Reports
      </Title>
      <LinkTabs tabs={tabs} label={CONSOLE_TEXTS.reports.tabsLabel} />
      <Outlet />
    </Stack>
  );
}
