import { REMEDIATION_SEVERITIES } from '@patchwell/core/remediation/scanners.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { CsvDownloadButton } from '../../../ui/CsvDownloadButton';
import { formatUtc } from '../../../ui/format-date';
import { SortableTh } from '../../../ui/table/SortableTh';
import { TablePager } from '../../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../../ui/table/table-query';
import { useTableQuery, type TableQueryControls } from '../../../ui/table/useTableQuery';
import { SeverityBadge } from '../../devices/components/DeviceBadges';
import { OverdueBadge } from '../../tasks/components/RemediationBadges';
import { cvesCsvHref, useCves } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const FILTERS = ['search', 'severity', 'overdue'] as const;
type CveFilter = (typeof FILTERS)[number];

function CveFilters({ table }: { table: TableQueryControls<CveFilter> }) {
  const { filters } = table.query;
  const hasFilters = Object.values(filters).some(Boolean) || table.searchInput !== '';
  return (
    <Group role="search" aria-label={T.cvesFilters} align="flex-end" gap="sm">
      <TextInput
        label={T.search}
        size="sm"
        type="search"
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={table.searchInput}
        onChange={(e) => table.setSearchInput(e.currentTarget.value)}
      />
      <NativeSelect
        label={T.severity}
        size="sm"
        value={filters.severity}
        onChange={(e) => table.setFilter('severity', e.currentTarget.value)}
        data={[
          { value: '', label: CONSOLE_TEXTS.table.any },
          ...REMEDIATION_SEVERITIES.map((s) => ({ value: s, label: CONSOLE_TEXTS.severity[s] ?? s })),
        ]}
      />
      <Checkbox
        label={T.onlyOverdue}
        checked={filters.overdue === 'true'}
        onChange={(e) => table.setFilter('overdue', e.currentTarget.checked ? 'true' : '')}
        mb={8}
      />
      {hasFilters && (
        <Button variant="subtle" size="sm" onClick={table.clearFilters}>
          {CONSOLE_TEXTS.table.clearFilters}
        </Button>
      )}
    </Group>
  );
}

/**
 * The zone's CVEs (issue 11 "a CVE view that explains itself"): search, severity and
 * overdue filters in the URL, sortable columns, paging, and the same list as CSV.
 */
export function CveTable({ zoneId }: { zoneId: number }) {
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const cves = useCves(zoneId, { ...apiPaging(query), ...filters });
  const rows = cves.data?.data ?? [];
  const total = cves.data?.size ?? 0;
  const th = (field: string, label: string) => (
    <SortableTh field={field} sort={query.sort} onSort={table.toggleSort}>
      {label}
    </SortableTh>
  );
  const isZoneEmpty = cves.isSuccess && !cves.isPlaceholderData && total === 0 && Object.keys(filters).length === 0;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <CveFilters table={table} />
        <CsvDownloadButton href={cvesCsvHref(zoneId, filters)} label={T.exportCsv} />
      </Group>
      {cves.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {cves.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {cves.data && (
        <Table.ScrollContainer minWidth={1000}>
          <Table highlightOnHover withTableBorder aria-label={T.cvesLabel}>
            <Table.Thead>
              <Table.Tr>
                {th('cve', T.cve)}
                {th('severity', T.severity)}
                <Table.Th scope="col">{T.titleCol}</Table.Th>
                {th('affected_device_count', T.affected)}
                <Table.Th scope="col">{T.remediated}</Table.Th>
                <Table.Th scope="col">{T.excepted}</Table.Th>
                <Table.Th scope="col">{T.overdue}</Table.Th>
                {th('first_seen_at', T.firstSeen)}
                {th('due_at', T.due)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.cve}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={withZone(pathTo(PATHS.remediationCve, { cve: c.cve }), zoneId)}
                      size="sm"
                      style={{ whiteSpace: 'nowrap' }}
                    >
                      {c.cve}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <SeverityBadge severity={c.severity} />
                      {c.cvss !== null && (
                        <Text size="xs" c="dimmed">
                          {T.cvss} {c.cvss}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={2}>
                      {c.title}
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.affected_device_count}</Table.Td>
                  <Table.Td>{c.remediated_device_count}</Table.Td>
                  <Table.Td>{c.excepted_device_count}</Table.Td>
                  <Table.Td>
                    {c.overdue_device_count > 0 ? (
                      <OverdueBadge label={`${T.overdue}: ${c.overdue_device_count}`} />
                    ) : (
                      0
                    )}
                  </Table.Td>
                  <Table.Td>{formatUtc(c.first_seen_at)}</Table.Td>
                  <Table.Td>{c.due_at ? formatUtc(c.due_at) : T.noDeadline}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {cves.data && (
        <TablePager
          empty={rows.length === 0 ? (isZoneEmpty ? T.cvesEmpty : T.cvesNoMatch) : null}
          page={query.page}
          limit={query.limit}
          total={total}
          onPage={table.setPage}
          onLimit={table.setLimit}
        />
      )}
    </Stack>
  );
}
