import { Button, EmptyState, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { canFor } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { TablePager } from '../../ui/table/TablePager';
import { activeFilters } from '../../ui/table/table-query';
import { useTableQuery } from '../../ui/table/useTableQuery';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { AddDevicesMenu } from './components/AddDevicesMenu';
import { BulkActions } from './components/BulkActions';
import { DeviceFilters } from './components/DeviceFilters';
import { DeviceTable } from './components/DeviceTable';
import { DEVICE_FILTERS } from './device-filters';
import { devicesExportHref, useDevices } from './devices.api';
import { deviceListParams } from './devices.loader';
import { useDeviceActions } from './useDeviceActions';

const T = CONSOLE_TEXTS.devices;

export { devicesLoader } from './devices.loader';

/** /devices: the zone's devices, server-paged, sorted and filtered, with bulk and row actions. */
export function DevicesPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const table = useTableQuery(DEVICE_FILTERS, 'search');
  const { query } = table;
  const filters = activeFilters(query.filters);
  const apiQuery = deviceListParams(query);
  const queryKey = JSON.stringify(apiQuery);
  const devices = useDevices(zoneId, apiQuery);
  const groups = useGroups(zoneId);
  const actions = useDeviceActions(zoneId, groups.data ?? []);
  const [isManualOpen, setManualOpen] = useState(false);
  // The selection belongs to one page of one query; any change of either clears it.
  const [selection, setSelection] = useState<{ key: string; ids: number[] }>({ key: queryKey, ids: [] });
  const selectedIds = selection.key === queryKey ? selection.ids : [];
  const setSelected = (ids: number[]) => setSelection({ key: queryKey, ids });

  const rows = devices.data?.data ?? [];
  const total = devices.data?.size ?? 0;
  const hasFilters = Object.keys(filters).length > 0;
  const isZoneEmpty = devices.isSuccess && !devices.isPlaceholderData && total === 0 && !hasFilters;
  const { page: _page, limit: _limit, ...exportQuery } = apiQuery;

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
              <BulkActions selectedIds={selectedIds} can={can} actions={actions} onDone={() => setSelected([])} />
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
          {devices.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
          {devices.data && (
            <DeviceTable
              zoneId={zoneId}
              rows={rows}
              sort={query.sort}
              onSort={table.toggleSort}
              selectedIds={selectedIds}
              onSelect={setSelected}
              can={can}
              actions={actions}
              resetKey={queryKey}
            />
          )}
          {devices.data && (
            <TablePager
              empty={rows.length === 0 ? T.noMatch : null}
              page={query.page}
              limit={query.limit}
              total={total}
              onPage={table.setPage}
              onLimit={table.setLimit}
            />
          )}
        </>
      )}
      {actions.dialogs}
    </Stack>
  );
}
