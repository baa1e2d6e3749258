import { Alert, Anchor, Loader, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { POLICY_TYPE_LABELS } from '@patchwell/core/policies/policies.schema';
import { TEXTS } from '@patchwell/core/texts';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { pathTo, PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { SortableTh } from '../../ui/table/SortableTh';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { usePolicyResults } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.policyResults;
const FILTERS = ['search'] as const;

/** /reports/policy-results: the zone's policies that ran in the last 30 days and how their runs went. */
export function PolicyResultsPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const results = usePolicyResults(zoneId, { ...apiPaging(query), ...filters });
  const data = results.data;
  const detail = (uuid: string) => withZone(pathTo(PATHS.reportsPolicyResult, { policyUuid: uuid }), zoneId);
  const sortable = (field: string, label: string) => (
    <SortableTh field={field} sort={query.sort} onSort={table.toggleSort}>
      {label}
    </SortableTh>
  );

  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={2} fz="h3">
          {T.title}
        </Title>
        {data && (
          <Text size="sm" c="dimmed">
            {T.intro(formatUtc(data.since))}
          </Text>
        )}
      </Stack>
      <TextInput
        label={T.search}
        size="sm"
        type="search"
        maw={320}
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={table.searchInput}
        onChange={(e) => table.setSearchInput(e.currentTarget.value)}
      />
      {results.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {results.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {data && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover withTableBorder aria-label={T.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                {sortable('name', T.policy)}
                <Table.Th scope="col">{T.type}</Table.Th>
                {sortable('runs', T.runs)}
                {sortable('last_run_at', T.lastRun)}
                <Table.Th scope="col">{T.devices}</Table.Th>
                <Table.Th scope="col">{T.success}</Table.Th>
                {sortable('failed', T.failed)}
                <Table.Th scope="col">{T.pending}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Text size="sm" c="dimmed" role="status">
                      {query.filters.search ? T.noMatch : T.none}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {data.data.map((p) => (
                <Table.Tr key={p.policy_id}>
                  <Table.Td>
                    <Anchor component={Link} to={detail(p.policy_uuid)} size="sm">
                      {p.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{POLICY_TYPE_LABELS[p.policy_type_name] ?? p.policy_type_name}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={detail(p.policy_uuid)}
                      size="sm"
                      aria-label={`${p.name}: ${p.runs} ${T.runs.toLowerCase()}`}
                    >
                      {p.runs}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatUtc(p.last_run_at)}</Table.Td>
                  <Table.Td>{p.devices}</Table.Td>
                  <Table.Td>{p.success}</Table.Td>
                  <Table.Td>{p.failed}</Table.Td>
                  <Table.Td>{p.pending}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && (
        <TablePager
          page={query.page}
          limit={query.limit}
          total={data.size}
          onPage={table.setPage}
          onLimit={table.setLimit}
        />
      )}
    </Stack>
  );
}
