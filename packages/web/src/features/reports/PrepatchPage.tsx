import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { PATCH_SEVERITIES } from '@patchwell/core/agent/agent-protocol.schema';
import { PATCH_AGE_BUCKETS } from '@patchwell/core/reports/patch-age';
import { TEXTS } from '@patchwell/core/texts';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { pathTo, PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { SortableTh } from '../../ui/table/SortableTh';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging, withFilter } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { CountTable } from './components/CountTable';
import { CountsBarChart } from './components/CountsBarChart';
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
      {report.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
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
      <Group role="search" aria-label={T.filters} align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={REPORTS_TEXTS.search}
          size="sm"
          type="search"
          leftSection={<IconSearch size={14} aria-hidden="true" />}
          value={table.searchInput}
          onChange={(e) => table.setSearchInput(e.currentTarget.value)}
        />
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
        <Button
          component="a"
          href={reportCsvHref('prepatch', zoneId, exportQuery)}
          download
          variant="default"
          size="sm"
          ml="auto"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
        >
          {REPORTS_TEXTS.exportCsv}
        </Button>
      </Group>
      {data && (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped highlightOnHover withTableBorder aria-label={T.tableLabel}>
              <Table.Thead>
                <Table.Tr>
                  <SortableTh field="name" sort={query.sort} onSort={table.toggleSort}>
                    {REPORTS_TEXTS.device}
                  </SortableTh>
                  <Table.Th scope="col">{REPORTS_TEXTS.os}</Table.Th>
                  <Table.Th scope="col">{REPORTS_TEXTS.group}</Table.Th>
                  <SortableTh field="pending_patches" sort={query.sort} onSort={table.toggleSort}>
                    {REPORTS_TEXTS.pendingPatches}
                  </SortableTh>
                  <SortableTh field="critical" sort={query.sort} onSort={table.toggleSort}>
                    {T.critical}
                  </SortableTh>
                  <Table.Th scope="col">{T.high}</Table.Th>
                  <Table.Th scope="col">{T.medium}</Table.Th>
                  <Table.Th scope="col">{T.low}</Table.Th>
                  <Table.Th scope="col">{T.other}</Table.Th>
                  <SortableTh field="oldest_age_days" sort={query.sort} onSort={table.toggleSort}>
                    {T.oldest}
                  </SortableTh>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), zoneId)}
                        size="sm"
                      >
                        {d.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{d.os_name}</Table.Td>
                    <Table.Td>{d.group_name}</Table.Td>
                    <Table.Td>{d.pending_patches}</Table.Td>
                    <Table.Td>{d.critical}</Table.Td>
                    <Table.Td>{d.high}</Table.Td>
                    <Table.Td>{d.medium}</Table.Td>
                    <Table.Td>{d.low}</Table.Td>
                    <Table.Td>{d.other}</Table.Td>
                    <Table.Td>{d.oldest_age_days === null ? '—' : T.days(d.oldest_age_days)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <TablePager
            empty={data.data.length === 0 ? (data.summary.total.devices === 0 ? T.none : T.noMatch) : null}
            page={query.page}
            limit={query.limit}
            total={data.size}
            onPage={table.setPage}
            onLimit={table.setLimit}
          />
        </>
      )}
    </Stack>
  );
}
