import { Alert, Anchor, Button, Card, Loader, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PATCH_SEVERITIES } from '@patchwell/core/agent/agent-protocol.schema';
import { PATCH_AGE_BUCKETS } from '@patchwell/core/reports/patch-age';
import { TEXTS } from '@patchwell/core/texts';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { activeFilters, apiPaging, withFilter } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { CountTable } from './components/CountTable';
import { CountsBarChart } from './components/CountsBarChart';
import { ReportDeviceTable, ReportDeviceToolbar } from './components/ReportDeviceTable';
import { reportCsvHref, usePrepatch } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.prepatch;
const FILTERS = ['severity', 'age', 'search'] as const;
const any = { value: '', label: REPORTS_TEXTS.any };
const severityLabel = (s: string) => CONSOLE_TEXTS.severity[s] ?? s;

/**
 * /reports/prepatch: the zone's pending patches by severity and by the spec's age buckets
 * (`GET /api/reports/prepatch`), and the devices that have them, filtered by the number
 * clicked; the table exports to CSV with its filters.
 */
export function PrepatchPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const [params] = useSearchParams();
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const apiQuery = { ...apiPaging(query), ...filters };
  const report = usePrepatch(zoneId, apiQuery);
  const data = report.data;
  const { page: _page, limit: _limit, ...exportQuery } = apiQuery;
  // A summary number shows its devices: that filter alone, on the first page.
  const only = (name: 'severity' | 'age', value: string) => {
    let next = new URLSearchParams(params);
    for (const f of FILTERS) next.delete(f);
    next = withFilter(next, name, value);
    return `${PATHS.reportsPrepatch}?${next.toString()}`;
  };
  const hasFilters = Object.keys(filters).length > 0 || table.searchInput !== '';

  return (
    <Stack gap="lg">
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
      {report.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {report.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {data && (
        <>
          <Text size="sm">
            <Anchor
              component={Link}
              to={withZone(PATHS.reportsPrepatch, zoneId)}
              aria-label={`${T.total}: ${data.summary.total.patches}`}
            >
              {T.total}: {data.summary.total.patches}
            </Anchor>{' '}
            ({data.summary.total.devices} {T.devices.toLowerCase()})
          </Text>
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Card withBorder padding="md" radius="md" component="section" aria-label={T.bySeverity}>
              <Title order={3} fz="h4" mb="sm">
                {T.bySeverity}
              </Title>
              <CountsBarChart
                label={T.bySeverity}
                devicesLabel={T.devices}
                patchesLabel={T.patches}
                rows={data.summary.by_severity.map((s) => ({ ...s, label: severityLabel(s.severity) }))}
              />
              <CountTable
                label={T.bySeverity}
                groupHeader={T.severity}
                devicesHeader={T.devices}
                patchesHeader={T.patches}
                rows={data.summary.by_severity.map((s) => ({
                  key: s.severity,
                  label: severityLabel(s.severity),
                  devices: s.devices,
                  patches: s.patches,
                  to: only('severity', s.severity),
                }))}
              />
            </Card>
            <Card withBorder padding="md" radius="md" component="section" aria-label={T.byAge}>
              <Title order={3} fz="h4" mb="sm">
                {T.byAge}
              </Title>
              <CountsBarChart
                label={T.byAge}
                devicesLabel={T.devices}
                patchesLabel={T.patches}
                rows={data.summary.by_age.map((a) => ({ ...a, label: T.ageLabels[a.bucket] }))}
              />
              <CountTable
                label={T.byAge}
                groupHeader={T.age}
                devicesHeader={T.devices}
                patchesHeader={T.patches}
                // Patches without a publication date get their row only when there are some.
                rows={data.summary.by_age
                  .filter((a) => a.bucket !== 'unknown' || a.patches > 0)
                  .map((a) => ({
                    key: a.bucket,
                    label: T.ageLabels[a.bucket],
                    devices: a.devices,
                    patches: a.patches,
                    to: only('age', a.bucket),
                  }))}
              />
            </Card>
          </SimpleGrid>
        </>
      )}
      <ReportDeviceToolbar label={T.filters} table={table} csvHref={reportCsvHref('prepatch', zoneId, exportQuery)}>
        <NativeSelect
          label={T.severity}
          size="sm"
          value={query.filters.severity}
          onChange={(e) => table.setFilter('severity', e.currentTarget.value)}
          data={[any, ...PATCH_SEVERITIES.map((s) => ({ value: s, label: severityLabel(s) }))]}
        />
        <NativeSelect
          label={T.age}
          size="sm"
          value={query.filters.age}
          onChange={(e) => table.setFilter('age', e.currentTarget.value)}
          data={[any, ...[...PATCH_AGE_BUCKETS, 'unknown' as const].map((b) => ({ value: b, label: T.ageLabels[b] }))]}
        />
        {hasFilters && (
          <Button variant="subtle" size="sm" onClick={table.clearFilters}>
            {T.clear}
          </Button>
        )}
      </ReportDeviceToolbar>
      {data && (
        <ReportDeviceTable
          label={T.tableLabel}
          zoneId={zoneId}
          rows={data.data}
          table={table}
          total={data.size}
          empty={data.data.length === 0 ? (data.summary.total.devices === 0 ? T.none : T.noMatch) : null}
          columns={[
            { header: REPORTS_TEXTS.pendingPatches, sort: 'pending_patches', cell: (d) => d.pending_patches },
            { header: T.critical, sort: 'critical', cell: (d) => d.critical },
            { header: T.high, cell: (d) => d.high },
            { header: T.medium, cell: (d) => d.medium },
            { header: T.low, cell: (d) => d.low },
            { header: T.other, cell: (d) => d.other },
            {
              header: T.oldest,
              sort: 'oldest_age_days',
              cell: (d) => (d.oldest_age_days === null ? '—' : T.days(d.oldest_age_days)),
            },
          ]}
        />
      )}
    </Stack>
  );
}
