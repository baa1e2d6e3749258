import { Alert, Anchor, Button, EmptyState, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { PATCH_AGE_LABELS } from '@patchwell/core/reports/patch-age';
import { TEXTS } from '@patchwell/core/texts';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { usePageTitle } from '../../ui/usePageTitle';
import {
  AGE_COLORS,
  BarsCard,
  DashboardCard,
  MiniTable,
  SEVERITY_COLORS,
  severityLabel,
  Stat,
} from './components/DashboardCards';
import { ActivityChart, ComplianceTrend } from './components/DashboardCharts';
import { redirectsToOnboarding } from '../onboarding/onboarding-rule';
import { useFleetDashboard } from './dashboard.api';

const T = CONSOLE_TEXTS.dashboard;

export { dashboardLoader } from './dashboard.loader';

/**
 * /dashboard: the quick start guide until the account has completed it (spec A section 4;
 * see redirectsToOnboarding), then the fleet at a glance.
 */
export function DashboardPage() {
  const { profile, zoneId } = useShell();
  const [params] = useSearchParams();
  if (redirectsToOnboarding(profile, params)) return <Navigate to={withZone(PATHS.onboarding, zoneId)} replace />;
  return <FleetDashboardPage />;
}

/**
 * The zone's fleet at a glance (`GET /api/reports/dashboard`). Every figure is a
 * link to the list behind it: the devices list filtered, the prepatch or needs-attention
 * report, the software page or the overview's patch activity.
 */
function FleetDashboardPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const dashboard = useFleetDashboard(zoneId);
  const z = (path: string, extra: Record<string, string> = {}) => withZone(path, zoneId, extra);
  const data = dashboard.data;

  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        {data && (
          <Text size="sm" c="dimmed">
            {T.computedAt(formatUtc(data.computed_at))}
          </Text>
        )}
      </Stack>
      {dashboard.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {dashboard.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {data && data.devices.total === 0 && (
        <EmptyState
          py="xl"
          icon={<IconDeviceDesktop size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          description={T.noDevices}
        >
          <Group>
            <Button component={Link} to={z(PATHS.devices)}>
              {T.addDevices}
            </Button>
            <Button variant="default" component={Link} to={z(PATHS.onboarding)}>
              {T.onboarding}
            </Button>
          </Group>
        </EmptyState>
      )}
      {data && data.devices.total > 0 && (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Stat
              label={T.compliancePercent}
              value={data.compliance.percent === null ? T.noPercent : `${data.compliance.percent}%`}
              to={z(PATHS.devices, { compliance: 'compliant' })}
            />
            <Stat
              label={T.missingCritical(data.missing_critical.days)}
              value={data.missing_critical.devices}
              to={z(PATHS.devices, { critical_older_than: String(data.missing_critical.days) })}
            />
            <Stat
              label={T.needsAttention}
              value={data.devices.needs_attention}
              to={z(PATHS.reportsNeedsAttention, { compliance: 'needs_attention' })}
            />
            <Stat label={T.total} value={data.devices.total} to={z(PATHS.devices)} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <DashboardCard
              title={T.complianceTrend}
              link={
                <Anchor component={Link} to={z(PATHS.reportsOverview)} size="sm">
                  {T.allReports}
                </Anchor>
              }
            >
              <ComplianceTrend trend={data.compliance.trend} />
            </DashboardCard>
            <DashboardCard
              title={T.activity}
              link={
                <Anchor component={Link} to={z(PATHS.reportsOverview)} size="sm">
                  {T.allReports}
                </Anchor>
              }
            >
              <ActivityChart days={data.activity} />
            </DashboardCard>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <BarsCard
              title={T.bySeverity}
              total={data.pending.total.devices}
              bars={data.pending.by_severity.map((s) => ({
                label: severityLabel(s.severity),
                value: s.devices,
                color: SEVERITY_COLORS[s.severity] ?? 'gray',
                to: z(PATHS.reportsPrepatch, { severity: s.severity }),
              }))}
            />
            <BarsCard
              title={T.byAge}
              total={data.pending.total.devices}
              bars={data.pending.by_age.map((a, i) => ({
                label: PATCH_AGE_LABELS[a.bucket],
                value: a.devices,
                color: AGE_COLORS[i] ?? 'gray',
                to: z(PATHS.reportsPrepatch, { age: a.bucket }),
              }))}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <DashboardCard title={T.vulnerableSoftware}>
              <MiniTable
                head={[T.software, T.devicesCount, T.criticalDevices]}
                empty={T.vulnerableEmpty}
                rows={data.vulnerable_software.map((s) => [
                  <Anchor component={Link} to={z(PATHS.software, { search: s.name })} size="sm" key="n">
                    {s.name}
                  </Anchor>,
                  s.devices,
                  s.critical_devices,
                ])}
              />
            </DashboardCard>
            <DashboardCard title={T.recentFailures}>
              <MiniTable
                head={[T.device, T.patchOrPolicy, T.finished]}
                empty={T.failuresEmpty}
                rows={data.recent_failures.map((f) => [
                  <Anchor
                    component={Link}
                    to={z(PATHS.deviceDetail.replace(':deviceId', String(f.device_id)))}
                    size="sm"
                    key="d"
                  >
                    {f.device_name}
                  </Anchor>,
                  f.policy_name ?? (f.patches.length ? f.patches.join(', ') : T.allPatches),
                  formatUtc(f.finished_at),
                ])}
              />
            </DashboardCard>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
