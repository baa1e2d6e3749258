import { Anchor, Button, Checkbox, EmptyState, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { formatUtc } from '../../ui/format-date';
import { SortableTh } from '../../ui/table/SortableTh';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters, apiPaging } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { AddDevicesMenu } from './components/AddDevicesMenu';
import { BulkActions } from './components/BulkActions';
import { ComplianceBadge, DeviceStatusBadge } from './components/DeviceBadges';
import { DeviceFilters } from './components/DeviceFilters';
import { DEVICE_FILTERS, DEVICE_SORT_FIELDS } from './device-filters';
import { devicesExportHref, useDevices } from './devices.api';
import { deviceLabel } from './device-label';
import { formatOs } from '../../ui/format-units';

const T = CONSOLE_TEXTS.devices;

/** /devices: the zone's devices, server-paged, sorted and filtered, with bulk actions. */
export function DevicesPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const table = useTableQuery(DEVICE_FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const apiQuery = { ...apiPaging(query), ...filters };
  const queryKey = JSON.stringify(apiQuery);
  const devices = useDevices(zoneId, apiQuery);
  const groups = useGroups(zoneId);
  const [isManualOpen, setManualOpen] = useState(false);
  // The selection belongs to one page of one query; any change of either clears it.
  const [selection, setSelection] = useState<{ key: string; ids: number[] }>({ key: queryKey, ids: [] });
  const selectedIds = selection.key === queryKey ? selection.ids : [];
  const setSelected = (ids: number[]) => setSelection({ key: queryKey, ids });

  const rows = devices.data?.data ?? [];
  const total = devices.data?.size ?? 0;
  const hasFilters = Object.keys(filters).length > 0;
  const isZoneEmpty = devices.isSuccess && !devices.isPlaceholderData && total === 0 && !hasFilters;
  const allOnPage = rows.length > 0 && rows.every((d) => selectedIds.includes(d.id));
  const someOnPage = rows.some((d) => selectedIds.includes(d.id));
  const toggle = (id: number) =>
    setSelected(selectedIds.includes(id) ? selectedIds.filter((x) => x !== id) : [...selectedIds, id]);
  const { page: _page, limit: _limit, ...exportQuery } = apiQuery;

  const th = (key: keyof typeof DEVICE_SORT_FIELDS, label: string) => (
    <SortableTh field={DEVICE_SORT_FIELDS[key]} sort={query.sort} onSort={table.toggleSort}>
      {label}
    </SortableTh>
  );

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        {can('Endpoint', 'add') && (
          <AddDevicesMenu zoneId={zoneId} isManualOpen={isManualOpen} onManualOpen={setManualOpen} />
        )}
      </Group>

      {isZoneEmpty ? (
        <EmptyState
          py="xl"
          icon={<IconDeviceDesktop size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          title={T.emptyTitle}
          description={T.emptyBody}
        >
          {can('Endpoint', 'add') && <Button onClick={() => setManualOpen(true)}>{T.manualImport}</Button>}
        </EmptyState>
      ) : (
        <>
          <DeviceFilters table={table} groups={groups.data ?? []} />
          <Group justify="space-between">
            <Group gap="sm">
              <BulkActions
                zoneId={zoneId}
                selectedIds={selectedIds}
                groups={groups.data ?? []}
                can={can}
                onDone={() => setSelected([])}
              />
              {selectedIds.length > 0 && (
                <Text size="sm" c="dimmed">
                  {CONSOLE_TEXTS.table.selected(selectedIds.length)}
                </Text>
              )}
            </Group>
            <Button
              component="a"
              href={devicesExportHref(zoneId, exportQuery)}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
            >
              {T.exportCsv}
            </Button>
          </Group>
          {devices.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
          {devices.data && (
            <Table.ScrollContainer minWidth={960}>
              <Table striped highlightOnHover withTableBorder aria-label={T.tableLabel}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col" w={40}>
                      <Checkbox
                        aria-label={CONSOLE_TEXTS.table.selectAll}
                        checked={allOnPage}
                        indeterminate={someOnPage && !allOnPage}
                        onChange={() => setSelected(allOnPage ? [] : rows.map((d) => d.id))}
                      />
                    </Table.Th>
                    {th('name', T.name)}
                    {th('os', T.osFamily)}
                    {th('group', T.group)}
                    <Table.Th scope="col">{T.status}</Table.Th>
                    {th('lastSeen', T.lastSeen)}
                    {th('pendingPatches', T.pendingPatches)}
                    {th('compliance', T.compliance)}
                    <Table.Th scope="col">{T.tags}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((d) => {
                    const label = deviceLabel(d);
                    return (
                      <Table.Tr
                        key={d.id}
                        bg={selectedIds.includes(d.id) ? 'var(--mantine-primary-color-light)' : undefined}
                      >
                        <Table.Td>
                          <Checkbox
                            aria-label={CONSOLE_TEXTS.table.selectRow(label)}
                            checked={selectedIds.includes(d.id)}
                            onChange={() => toggle(d.id)}
                          />
                        </Table.Td>
                        <Table.Td>
                          <Anchor
                            component={Link}
                            to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.id }), zoneId)}
                          >
                            {label}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{formatOs(d.os_name, d.os_version)}</Table.Td>
                        <Table.Td>{d.group_name ?? '—'}</Table.Td>
                        <Table.Td>
                          <DeviceStatusBadge isOnline={d.connected} />
                        </Table.Td>
                        <Table.Td>{d.last_seen_at ? formatUtc(d.last_seen_at) : T.never}</Table.Td>
                        <Table.Td>{d.pending_patches}</Table.Td>
                        <Table.Td>
                          <ComplianceBadge compliance={d.compliance} />
                        </Table.Td>
                        <Table.Td>{d.tags.join(', ')}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {devices.data && rows.length === 0 && (
            <Text size="sm" c="dimmed">
              {T.noMatch}
            </Text>
          )}
          {devices.data && (
            <TablePager
              page={query.page}
              limit={query.limit}
              total={total}
              onPage={table.setPage}
              onLimit={table.setLimit}
            />
          )}
        </>
      )}
    </Stack>
  );
}
