import { Alert, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { TEXTS } from '@patchwell/core/texts';
import { addDays, checkReportDay, REPORT_MAX_DAYS_BACK, utcDay } from '@patchwell/core/reports/date-range';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { usePageTitle } from '../../ui/usePageTitle';
import { ComplianceChart, PatchActivityChart } from './components/OverviewCharts';
import { OverviewDaysTable } from './components/OverviewDaysTable';
import { PatchHistoryPanel } from './components/PatchHistoryPanel';
import { StatLinks } from './components/StatLinks';
import { useOverview } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.overview;

/**
 * /reports/overview: compliance over time, patch activity and devices by state
 * (`GET /api/reports/overview`, 10 days back by default). Every figure links to the list
 * behind it: the device list filtered, the needs-attention report, or a day's install commands.
 */
export function OverviewPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const [params, setParams] = useSearchParams();
  const startDate = params.get('startDate') ?? undefined;
  const day = params.get('day');
  const outcome = params.get('outcome') === 'failed' ? 'failed' : 'installed';
  const overview = useOverview(zoneId, startDate);
  const [dateError, setDateError] = useState<string | null>(null);
  const data = overview.data;

  const here = (extra: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(extra)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    return `${PATHS.reportsOverview}?${next.toString()}`;
  };
  const devicesWith = (extra: Record<string, string> = {}) => withZone(PATHS.devices, zoneId, extra);
  const onStartDate = (value: string) => {
    const issue = value ? checkReportDay(value, new Date()) : undefined;
    setDateError(issue ?? null);
    if (issue) return;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set('startDate', value);
      else next.delete('startDate');
      return next;
    });
  };
  const today = new Date();

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} fz="h3">
            {T.title}
          </Title>
          {data && (
            <Text size="sm" c="dimmed">
              {REPORTS_TEXTS.computedAt(formatUtc(data.computed_at))}
            </Text>
          )}
        </Stack>
        <TextInput
          type="date"
          label={T.startDate}
          size="sm"
          value={startDate ?? data?.start_date ?? ''}
          min={utcDay(addDays(today, -REPORT_MAX_DAYS_BACK))}
          max={utcDay(today)}
          error={dateError}
          onChange={(e) => onStartDate(e.currentTarget.value)}
        />
      </Group>
      {overview.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {overview.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {data && (
        <>
          <Stack gap="sm" component="section" aria-label={T.devicesTitle}>
            <Title order={3} fz="h4">
              {T.devicesTitle}
            </Title>
            <StatLinks
              label={T.devicesTitle}
              stats={[
                { label: T.total, value: data.devices.total, to: devicesWith() },
                { label: T.online, value: data.devices.online, to: devicesWith({ status: 'online' }) },
                { label: T.offline, value: data.devices.offline, to: devicesWith({ status: 'offline' }) },
                { label: T.needsReboot, value: data.devices.needs_reboot, to: devicesWith({ needs_reboot: 'true' }) },
                { label: T.compliant, value: data.devices.compliant, to: devicesWith({ compliance: 'compliant' }) },
                { label: T.pending, value: data.devices.pending, to: devicesWith({ compliance: 'pending' }) },
                {
                  label: T.needsAttention,
                  value: data.devices.needs_attention,
                  to: devicesWith({ compliance: 'needs_attention' }),
                },
                {
                  label: T.withPendingPatches,
                  value: data.devices.with_pending_patches,
                  to: withZone(PATHS.reportsPrepatch, zoneId),
                },
              ]}
            />
          </Stack>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Card withBorder padding="md" radius="md" component="section" aria-label={T.complianceTitle}>
              <Title order={3} fz="h4" mb="sm">
                {T.complianceTitle}
              </Title>
              <ComplianceChart days={data.days} />
            </Card>
            <Card withBorder padding="md" radius="md" component="section" aria-label={T.activityTitle}>
              <Title order={3} fz="h4" mb="sm">
                {T.activityTitle}
              </Title>
              <PatchActivityChart days={data.days} />
            </Card>
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {T.snapshotNote}
          </Text>
          <OverviewDaysTable
            days={data.days}
            today={data.end_date}
            links={{
              compliant: devicesWith({ compliance: 'compliant' }),
              notCompliant: withZone(PATHS.reportsNeedsAttention, zoneId),
              total: devicesWith(),
              history: (d, o) => here({ day: d, outcome: o }),
            }}
          />
          {day && (
            <PatchHistoryPanel
              key={`${day}:${outcome}`}
              zoneId={zoneId}
              day={day}
              outcome={outcome}
              closeTo={here({ day: null, outcome: null })}
            />
          )}
        </>
      )}
    </Stack>
  );
}
