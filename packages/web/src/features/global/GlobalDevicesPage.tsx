import { Anchor, Loader, Stack, Table, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { SortableTh } from '../../ui/table/SortableTh';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { useVirtualRows } from '../../ui/table/useVirtualRows';
import { VirtualSpacerRow } from '../../ui/table/VirtualSpacerRow';
import { usePageTitle } from '../../ui/usePageTitle';
import { DeviceStateCells } from '../devices/components/DeviceStateCells';
import { deviceLabel } from '../devices/device-label';
import { useGlobalDevices } from './global-devices.api';

const T = CONSOLE_TEXTS.globalDevices;
const D = CONSOLE_TEXTS.devices;
const FILTERS = ['search'] as const;
const COLUMN_COUNT = 8;

/**
 * /global/devices (spec A section 2): the devices of every zone of the account, for a global
 * administrator with the global-devices-table flag (the route's guard sends anyone else to a
 * zone's dashboard). Server-paged, sorted and searched like the zone's table; each name opens
 * the device in its own zone.
 */
export function GlobalDevicesPage() {
  usePageTitle(T.title);
  const { profile } = useShell();
  const table = useTableQuery(FILTERS, 'search');
  const { query } = table;
  const apiQuery = { ...apiPaging(query), ...activeFilters(query.filters) };
  const devices = useGlobalDevices(profile.account_id ?? 0, apiQuery);
  const rows = devices.data?.data ?? [];
  const { scrollRef, measureRef, bodyProps, ...virtual } = useVirtualRows({
    count: rows.length,
    estimateRowHeight: 41,
    getRowKey: (index) => rows[index]?.id ?? index,
  });

  const th = (field: string, label: string) => (
    <SortableTh field={field} sort={query.sort} onSort={table.toggleSort}>
      {label}
    </SortableTh>
  );

  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {T.title}
      </Title>
      <TextInput
        label={T.search}
        type="search"
        size="sm"
        maw={320}
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={table.searchInput}
        onChange={(e) => table.setSearchInput(e.currentTarget.value)}
      />
      {devices.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {devices.data && rows.length > 0 && (
        <Table.ScrollContainer
          ref={scrollRef}
          type="native"
          minWidth={960}
          style={{ maxHeight: 'max(24rem, calc(100dvh - 18rem))' }}
        >
          <Table
            stickyHeader
            highlightOnHover
            withTableBorder
            aria-label={T.tableLabel}
            aria-rowcount={rows.length + 1}
          >
            <Table.Thead>
              <Table.Tr aria-rowindex={1}>
                {th('name', D.name)}
                {th('zone_name', T.zone)}
                {th('os_name', D.osFamily)}
                {th('group_name', D.group)}
                <Table.Th scope="col">{D.status}</Table.Th>
                {th('last_seen_at', D.lastSeen)}
                {th('pending_patches', D.pendingPatches)}
                {th('compliance', D.compliance)}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody {...bodyProps}>
              {virtual.rows.map((item) => {
                const d = rows[item.index]!;
                return (
                  <Fragment key={d.id}>
                    <VirtualSpacerRow height={item.spaceBefore} colSpan={COLUMN_COUNT} />
                    <Table.Tr ref={measureRef} data-index={item.index} aria-rowindex={item.index + 2}>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), d.zone_id)}
                        >
                          {deviceLabel(d)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{d.zone_name}</Table.Td>
                      <DeviceStateCells device={d} />
                    </Table.Tr>
                  </Fragment>
                );
              })}
              <VirtualSpacerRow height={virtual.paddingBottom} colSpan={COLUMN_COUNT} />
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {devices.data && (
        <TablePager
          empty={rows.length === 0 ? (query.filters.search ? T.noMatch : T.empty) : null}
          page={query.page}
          limit={query.limit}
          total={devices.data.size}
          onPage={table.setPage}
          onLimit={table.setLimit}
        />
      )}
    </Stack>
  );
}
