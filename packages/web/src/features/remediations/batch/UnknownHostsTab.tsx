import { TEXTS } from '@patchwell/core/texts';
import { Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CveList } from '../../../ui/CveList';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { ManualImportDialog } from '../../devices/components/ManualImportDialog';
import { useBatchOutlet } from '../../tasks/components/BatchFrame';
import { useBatchUnknownHosts } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const COLUMNS = [
  { key: 'hostname', header: T.hostname },
  { key: 'ip', header: T.privateIp },
  { key: 'os', header: T.os },
  { key: 'cves', header: T.cves },
] as const;

const building = { data: undefined, isPending: true, isError: false } as const;

/**
 * 'Unknown Hosts': hosts of the file with no device in this zone, and how to bring them in
 * (the same install commands and key as the devices page's manual import).
 */
export function UnknownHostsTab() {
  const { zoneId, batch } = useBatchOutlet();
  const paging = usePaging();
  const [isInstallOpen, setInstallOpen] = useState(false);
  const isBuilding = batch.status === 'building';
  const hosts = useBatchUnknownHosts(zoneId, batch.id, paging.apiQuery, !isBuilding);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} maw={720}>
          <Title order={2} fz="h4">
            {TEXTS.remediation.unknownHosts}
          </Title>
          <Text size="sm" c="dimmed">
            {T.unknownIntro}
          </Text>
        </Stack>
        <Button variant="light" onClick={() => setInstallOpen(true)}>
          {T.installAgent}
        </Button>
      </Group>
      <PagedQueryTable
        label={T.unknownLabel}
        query={isBuilding ? building : hosts}
        paging={paging}
        columns={COLUMNS}
        rowKey={(h) => h.hostname}
        empty={T.unknownEmpty}
        renderCells={(h) => (
          <>
            <Table.Td>{h.hostname}</Table.Td>
            <Table.Td>{h.ip_addrs_private.join(', ') || '—'}</Table.Td>
            <Table.Td>{h.os ?? '—'}</Table.Td>
            <Table.Td>
              <CveList cves={h.cves} />
            </Table.Td>
          </>
        )}
      />
      <ManualImportDialog opened={isInstallOpen} zoneId={zoneId} onClose={() => setInstallOpen(false)} />
    </Stack>
  );
}
