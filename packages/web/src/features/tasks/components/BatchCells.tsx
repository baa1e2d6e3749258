import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { CsvDownloadButton } from '../../../ui/CsvDownloadButton';
import { formatUtc } from '../../../ui/format-date';
import { batchCsvHref } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';
import { BatchStatusBadge } from './RemediationBadges';

export const BATCH_COLUMNS = [
  { key: 'name', header: T.csvName },
  { key: 'by', header: T.queuedBy },
  { key: 'source', header: T.source },
  { key: 'devices', header: T.impactedDevices },
  { key: 'status', header: T.status },
  { key: 'uploaded', header: T.uploaded },
  { key: 'csv', header: T.downloadCsv },
] as const;

/**
 * The cells of one batch row (spec B section 2 "Task batch list": CSV name, queued by,
 * source, impacted devices, status), then when it was uploaded and its CSV, which is not
 * offered while the batch is building.
 */
export function BatchCells({ zoneId, batch, to }: { zoneId: number; batch: Batch; to: string }) {
  return (
    <>
      <Table.Td>
        <Anchor component={Link} to={to} size="sm">
          {batch.report_source}
        </Anchor>
      </Table.Td>
      <Table.Td>{batch.created_by_user.email ?? '—'}</Table.Td>
      <Table.Td>{T.sources[batch.source] ?? batch.source}</Table.Td>
      <Table.Td>{batch.status === 'building' ? '—' : batch.impacted_device_count}</Table.Td>
      <Table.Td>
        <BatchStatusBadge status={batch.status} />
      </Table.Td>
      <Table.Td>{formatUtc(batch.created_at)}</Table.Td>
      <Table.Td>
        {batch.status === 'building' ? (
          <Text size="xs" c="dimmed">
            {T.csvWhileBuilding}
          </Text>
        ) : (
          <CsvDownloadButton
            size="xs"
            href={batchCsvHref(zoneId, batch.id)}
            label={T.downloadCsv}
            ariaLabel={`${T.downloadCsv}: ${batch.report_source}`}
          />
        )}
      </Table.Td>
    </>
  );
}
