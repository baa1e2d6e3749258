import { SimpleGrid } from '@mantine/core';
import { IconReportAnalytics } from '@tabler/icons-react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { NavCard } from '../../ui/NavCard';
import { usePageTitle } from '../../ui/usePageTitle';
import { reportLinks } from './report-links';

/** /reports: one card per report. */
export function ReportsHomePage() {
  usePageTitle('Reports');
  const { profile, zoneId } = useShell();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      {reportLinks(profile, zoneId).map((link) => (
        <NavCard
          key={link.to}
          icon={<IconReportAnalytics size={22} />}
          label={link.label}
          description={link.description}
          to={link.to}
          buttonLabel={CONSOLE_TEXTS.open}
        />
      ))}
    </SimpleGrid>
  );
}
