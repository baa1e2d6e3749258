import { Badge, Button, Card, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { DATA_EXTRACT_KIND_DESCRIPTIONS, type DataExtract } from '@patchwell/core/reports/extracts.schema';
import { IconDownload } from '@tabler/icons-react';
import { useShell } from '../../app/shell-context';
import { formatUtc } from '../../ui/format-date';
import { PagedQueryTable, usePaging } from '../../ui/PagedQueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { ExtractRequestForm } from './components/ExtractRequestForm';
import { dataExtractCsvHref, useDataExtracts } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';
import { Hint } from '../../ui/Hint';

const T = REPORTS_TEXTS.extracts;
const STATUS_COLOR: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  ready: 'green',
  error: 'red',
  expired: 'gray',
};

const COLUMNS = [
  { key: 'requested', header: T.requestedAt },
  { key: 'kind', header: T.kind },
  { key: 'range', header: T.range },
  { key: 'by', header: T.requestedBy },
  { key: 'status', header: T.status },
  { key: 'rows', header: T.rows },
  { key: 'expires', header: T.expires },
  { key: 'download', header: T.download },
] as const;

function ExtractStatus({ extract }: { extract: DataExtract }) {
  const isOpen = extract.status === 'queued' || extract.status === 'running';
  const badge = (
    <Badge variant="light" color={STATUS_COLOR[extract.status] ?? 'gray'}>
      {T.statuses[extract.status] ?? extract.status}
    </Badge>
  );
  return (
    <Stack gap={4}>
      {extract.error ? <Hint label={extract.error}>{badge}</Hint> : badge}
      {isOpen && (
        <Progress
          value={extract.progress}
          size="sm"
          aria-label={T.progress(T.kinds[extract.kind], extract.progress)}
          animated={extract.status === 'running'}
        />
      )}
      {extract.error && (
        <Text size="xs" c="red.8">
          {extract.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * /reports/data-extracts: request an extract of up to 90 days, follow its progress while a
 * server builds it, and download its CSV once ready (kept 7 days).
 */
export function DataExtractsPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const paging = usePaging();
  const extracts = useDataExtracts(zoneId, paging.apiQuery);

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
      <Card withBorder padding="md" radius="md">
        <ExtractRequestForm zoneId={zoneId} />
        <Stack gap={2} mt="sm">
          {Object.entries(DATA_EXTRACT_KIND_DESCRIPTIONS).map(([kind, description]) => (
            <Text size="xs" c="dimmed" key={kind}>
              <strong>{T.kinds[kind as DataExtract['kind']]}:</strong> {description}
            </Text>
          ))}
        </Stack>
      </Card>
      <PagedQueryTable
        label={T.tableLabel}
        query={extracts}
        paging={paging}
        columns={COLUMNS}
        rowKey={(e) => e.id}
        empty={T.none}
        renderCells={(e) => (
          <>
            <Table.Td>{formatUtc(e.created_at)}</Table.Td>
            <Table.Td>{T.kinds[e.kind]}</Table.Td>
            <Table.Td>
              {e.start_date === e.end_date ? e.start_date : `${e.start_date} – ${e.end_date}`}
              <Text size="xs" c="dimmed">
                {T.presets[e.preset]}
              </Text>
            </Table.Td>
            <Table.Td>{e.requested_by ?? '—'}</Table.Td>
            <Table.Td>
              <ExtractStatus extract={e} />
            </Table.Td>
            <Table.Td>{e.row_count}</Table.Td>
            <Table.Td>{formatUtc(e.expires_at)}</Table.Td>
            <Table.Td>
              {e.status === 'ready' ? (
                <Button
                  component="a"
                  href={dataExtractCsvHref(zoneId, e.id)}
                  download
                  size="xs"
                  variant="default"
                  leftSection={<IconDownload size={14} aria-hidden="true" />}
                  aria-label={T.downloadOf(T.kinds[e.kind], e.id)}
                >
                  {T.download}
                </Button>
              ) : (
                '—'
              )}
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
