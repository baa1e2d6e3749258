import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
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
import { StatLinks } from './components/StatLinks';
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
      {report.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
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
        <Button
          component="a"
          href={reportCsvHref('needs-attention', zoneId, exportQuery)}
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
                  <SortableTh field="compliance" sort={query.sort} onSort={table.toggleSort}>
                    {T.state}
                  </SortableTh>
                  <Table.Th scope="col">{T.reason}</Table.Th>
                  <SortableTh field="pending_patches" sort={query.sort} onSort={table.toggleSort}>
                    {REPORTS_TEXTS.pendingPatches}
                  </SortableTh>
                  <SortableTh field="last_seen_at" sort={query.sort} onSort={table.toggleSort}>
                    {REPORTS_TEXTS.lastSeen}
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
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge
                        variant="light"
                        color={STATE_COLOR[d.compliance] ?? 'gray'}
                        style={{ overflow: 'visible' }}
                      >
                        {CONSOLE_TEXTS.compliance[d.compliance] ?? d.compliance}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{d.compliance_reason}</Text>
                    </Table.Td>
                    <Table.Td>{d.pending_patches}</Table.Td>
                    <Table.Td>{formatUtc(d.last_seen_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <TablePager
            empty={data.data.length === 0 ? (data.summary.total === 0 ? T.none : T.noMatch) : null}
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
