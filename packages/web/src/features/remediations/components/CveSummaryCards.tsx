import type { RemediationSeverity } from '@patchwell/core/remediation/scanners.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Card, Loader, SimpleGrid, Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { useCveSummary } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const OVERDUE_SEVERITIES: RemediationSeverity[] = ['critical', 'high', 'medium', 'low'];

function Stat({ label, value, isAlert = false }: { label: string; value: number; isAlert?: boolean }) {
  return (
    <Card withBorder padding="sm" radius="md" component="li">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700} c={isAlert && value > 0 ? 'red.9' : undefined}>
        {value.toLocaleString('en-US')}
      </Text>
    </Card>
  );
}

/** The zone's open CVEs, affected devices, and devices past their deadline by severity. */
export function CveSummaryCards({ zoneId }: { zoneId: number }) {
  const summary = useCveSummary(zoneId);
  if (summary.isError)
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.unableToLoad}
      </Alert>
    );
  if (!summary.data) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const s = summary.data;
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 4, lg: 7 }}
      component="ul"
      aria-label={T.summaryLabel}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      <Stat label={T.openCves} value={s.open_cves} />
      <Stat label={T.affectedDevices} value={s.affected_devices} />
      <Stat label={T.overdueDevices} value={s.overdue_total} isAlert />
      {OVERDUE_SEVERITIES.map((sev) => (
        <Stat key={sev} label={T.overdueBy(CONSOLE_TEXTS.severity[sev] ?? sev)} value={s.overdue[sev] ?? 0} isAlert />
      ))}
    </SimpleGrid>
  );
}
