import { Alert, Badge, Loader, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { TEXTS } from '@patchwell/core/texts';
import { useSearchParams } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { activeFilters, apiPaging, withFilter } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { StatLinks } from './components/StatLinks';
import { ReportDeviceTable, ReportDeviceToolbar } from './components/ReportDeviceTable';
import { reportCsvHref, useNeedsAttention } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.needsAttention;
const FILTERS = ['compliance', 'search'] as const;
const STATE_COLOR: Record<string, string> = { pending: 'yellow', needs_attention: 'red' };

/**
 * /reports/needs-attention: the zone's devices that are not compliant and the reason the
 * compliance rule gives for each (`GET /api/reports/needs-attention`), exportable to CSV.
 */
export function NeedsAttentionPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const [params] = useSearchParams();
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const apiQuery = { ...apiPaging(query), ...filters };
  const report = useNeedsAttention(zoneId, apiQuery);
  const data = report.data;
  const { page: _page, limit: _limit, ...exportQuery } = apiQuery;
  const state = (value: string) =>
    `${PATHS.reportsNeedsAttention}?${withFilter(params, 'compliance', value).toString()}`;

  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={2} fz="h3">
          {T.title}
        </Title>
        <Text size="sm" c="dimmed">
          {T.intro}
        </Text>
      </Stack>
      {report.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {report.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {data && (
        <StatLinks
          label={T.title}
          stats={[
            { label: T.total, value: data.summary.total, to: state('') },
            {
              label: CONSOLE_TEXTS.compliance.needs_attention!,
              value: data.summary.needs_attention,
              to: state('needs_attention'),
            },
            { label: CONSOLE_TEXTS.compliance.pending!, value: data.summary.pending, to: state('pending') },
          ]}
        />
      )}
      <ReportDeviceToolbar
        label={T.filters}
        table={table}
        csvHref={reportCsvHref('needs-attention', zoneId, exportQuery)}
      >
        <NativeSelect
          label={T.state}
          size="sm"
          value={query.filters.compliance}
          onChange={(e) => table.setFilter('compliance', e.currentTarget.value)}
          data={[
            { value: '', label: REPORTS_TEXTS.any },
            { value: 'needs_attention', label: CONSOLE_TEXTS.compliance.needs_attention! },
            { value: 'pending', label: CONSOLE_TEXTS.compliance.pending! },
          ]}
        />
      </ReportDeviceToolbar>
      {data && (
        <ReportDeviceTable
          label={T.tableLabel}
          zoneId={zoneId}
          rows={data.data}
          table={table}
          total={data.size}
          empty={data.data.length === 0 ? (data.summary.total === 0 ? T.none : T.noMatch) : null}
          columns={[
            {
              header: T.state,
              sort: 'compliance',
              cell: (d) => (
                <Badge variant="light" color={STATE_COLOR[d.compliance] ?? 'gray'} style={{ overflow: 'visible' }}>
                  {CONSOLE_TEXTS.compliance[d.compliance] ?? d.compliance}
                </Badge>
              ),
            },
            { header: T.reason, cell: (d) => <Text size="sm">{d.compliance_reason}</Text> },
            { header: REPORTS_TEXTS.pendingPatches, sort: 'pending_patches', cell: (d) => d.pending_patches },
            { header: REPORTS_TEXTS.lastSeen, sort: 'last_seen_at', cell: (d) => formatUtc(d.last_seen_at) },
          ]}
        />
      )}
    </Stack>
  );
}
