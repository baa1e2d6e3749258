import { DEBOUNCE_MS, PAGE_SIZE_DEFAULT } from '@patchwell/core/constants';
import { Button, Checkbox, Group, Loader, Stack, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { CveList } from '../../../ui/CveList';
import { notify } from '../../../ui/notify';
import { TablePager } from '../../../ui/table/TablePager';
import { deviceKeys, queueCommand, useDevicePackages } from '../devices.api';
import type { DevicePackage } from '../devices.types';
import { VersionBadge } from '../../../ui/VersionBadge';
import { SeverityBadge } from './DeviceBadges';

const T = CONSOLE_TEXTS.device;

export type DevicePackagesProps = {
  zoneId: number;
  deviceId: number;
  /** The pending-patches tab: only packages with an update, with severity, CVEs and KB. */
  isPatchesView?: boolean;
  /** The device's name, for the install confirmation. */
  deviceName?: string;
  /** Endpoint.manage: each pending patch offers Install. */
  canInstall?: boolean;
};

/**
 * A device's installed packages (`GET /api/servers/{id}/packages`), paged on the server,
 * with a debounced search and a needs-update filter; either change returns to page 1. On the
 * pending-patches tab, Install queues `InstallUpdate` for that one update.
 */
export function DevicePackages({
  zoneId,
  deviceId,
  isPatchesView = false,
  deviceName = '',
  canInstall = false,
}: DevicePackagesProps) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  const [needsUpdate, setNeedsUpdate] = useState(false);
  const [paging, setPaging] = useState({ page: 1, limit: PAGE_SIZE_DEFAULT, search: '', needsUpdate: false });
  // Filters changed since the page was chosen: back to page 1.
  const page = paging.search === debounced && paging.needsUpdate === needsUpdate ? paging.page : 1;
  const setPage = (p: number) => setPaging({ page: p, limit: paging.limit, search: debounced, needsUpdate });
  const setLimit = (limit: number) => setPaging({ page: 1, limit, search: debounced, needsUpdate });
  const packages = useDevicePackages(zoneId, deviceId, {
    page: page - 1,
    limit: paging.limit,
    search: debounced || undefined,
    needs_update: isPatchesView || needsUpdate ? true : undefined,
  });
  const rows = packages.data?.data ?? [];
  const label = isPatchesView ? T.patches : T.software;
  const withInstall = isPatchesView && canInstall;

  const onInstall = (p: DevicePackage) =>
    confirmAction({
      title: T.installTitle,
      message: T.installBody(p.name, p.patch?.version ?? '', deviceName),
      confirmLabel: T.install,
      onConfirm: () =>
        void queueCommand(zoneId, deviceId, 'InstallUpdate', { names: [p.name] }).then(
          async () => {
            notify.success(T.queued(T.installWhat(p.name)));
            // The details, packages and command history share this prefix: the new command
            // shows in the history, and its being open starts the live-status polling.
            await queryClient.invalidateQueries({ queryKey: deviceKeys.detail(zoneId, deviceId) });
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="md">
      <Group align="flex-end">
        <TextInput
          label={T.packageSearch}
          type="search"
          size="sm"
          leftSection={<IconSearch size={14} aria-hidden="true" />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        {!isPatchesView && (
          <Checkbox
            label={T.needsUpdate}
            checked={needsUpdate}
            onChange={(e) => setNeedsUpdate(e.currentTarget.checked)}
            mb={6}
          />
        )}
      </Group>
      {packages.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {packages.data && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped withTableBorder aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{T.packageName}</Table.Th>
                <Table.Th scope="col">{T.version}</Table.Th>
                {isPatchesView ? (
                  <>
                    <Table.Th scope="col">{T.update}</Table.Th>
                    <Table.Th scope="col">{T.severity}</Table.Th>
                    <Table.Th scope="col">{T.cves}</Table.Th>
                    <Table.Th scope="col">{T.kb}</Table.Th>
                    <Table.Th scope="col">{T.rebootRequired}</Table.Th>
                    {withInstall && <Table.Th scope="col">{T.actions}</Table.Th>}
                  </>
                ) : (
                  <>
                    <Table.Th scope="col">{T.source}</Table.Th>
                    <Table.Th scope="col">{T.update}</Table.Th>
                  </>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <Table.Tr key={`${p.name}@${p.version}`}>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{p.version || '—'}</Table.Td>
                  {isPatchesView ? (
                    <>
                      <Table.Td>{p.patch?.version ?? '—'}</Table.Td>
                      <Table.Td>
                        <SeverityBadge severity={p.patch?.severity} />
                      </Table.Td>
                      <Table.Td>
                        <CveList cves={p.patch?.cves ?? []} />
                      </Table.Td>
                      <Table.Td>{p.patch?.kb ?? '—'}</Table.Td>
                      <Table.Td>
                        {p.patch?.reboot_required ? CONSOLE_TEXTS.devices.yes : CONSOLE_TEXTS.devices.no}
                      </Table.Td>
                      {withInstall && (
                        <Table.Td>
                          <Button
                            size="compact-sm"
                            variant="light"
                            aria-label={T.installLabel(p.name)}
                            onClick={() => onInstall(p)}
                          >
                            {T.install}
                          </Button>
                        </Table.Td>
                      )}
                    </>
                  ) : (
                    <>
                      <Table.Td>{p.source ?? '—'}</Table.Td>
                      <Table.Td>
                        {p.patch ? (
                          <Group gap={6} wrap="nowrap">
                            <VersionBadge version={p.patch.version} />
                            <SeverityBadge severity={p.patch.severity} />
                          </Group>
                        ) : (
                          '—'
                        )}
                      </Table.Td>
                    </>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {packages.data && (
        <TablePager
          empty={rows.length === 0 ? (isPatchesView ? T.noPatches : T.noPackages) : null}
          page={page}
          limit={paging.limit}
          total={packages.data.size}
          onPage={setPage}
          onLimit={setLimit}
        />
      )}
    </Stack>
  );
}
