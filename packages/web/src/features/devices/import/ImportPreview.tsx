import { Badge, Checkbox, Group, List, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import type { HostImportResult, HostImportRowStatus } from '@patchwell/core/devices/host-imports.schema';
import { CONSOLE_TEXTS } from '../../../texts';
import { IMPORT_TEXTS as T } from './import.texts';

const STATUS_COLORS: Record<HostImportRowStatus, string> = {
  new: 'green',
  matches_device: 'blue',
  duplicate: 'yellow',
  error: 'red',
};

// A 5,000-row file would make the dialog sluggish; the summary counts every row anyway.
const MAX_SHOWN_ROWS = 200;

/** The dry run's answer: counts by status, and each row with what the import will do with it. */
export function ImportPreview({ result }: { result: HostImportResult }) {
  const [isOnlyProblems, setOnlyProblems] = useState(false);
  const { summary } = result;
  const rows = isOnlyProblems ? result.rows.filter((r) => r.status !== 'new' || r.warnings.length) : result.rows;
  const shown = rows.slice(0, MAX_SHOWN_ROWS);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {(['new', 'matches_device', 'duplicate', 'error'] as const).map((status) => (
          <Badge key={status} color={STATUS_COLORS[status]} variant={summary[status] ? 'light' : 'outline'}>
            {T.summary[status](summary[status])}
          </Badge>
        ))}
      </Group>
      {result.ignored_columns.length > 0 && (
        <Text size="sm" c="dimmed">
          {T.ignoredColumns(result.ignored_columns)}
        </Text>
      )}
      <Checkbox
        label={T.onlyProblems}
        checked={isOnlyProblems}
        onChange={(e) => setOnlyProblems(e.currentTarget.checked)}
      />
      <Table.ScrollContainer minWidth={640} maxHeight={360}>
        <Table striped stickyHeader verticalSpacing={4} fz="sm">
          <Table.Caption>{T.table.caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{T.table.line}</Table.Th>
              <Table.Th>{T.table.hostname}</Table.Th>
              <Table.Th>{T.table.os}</Table.Th>
              <Table.Th>{T.table.group}</Table.Th>
              <Table.Th>{T.table.tags}</Table.Th>
              <Table.Th>{T.table.status}</Table.Th>
              <Table.Th>{T.table.messages}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={row.line}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{row.hostname}</Table.Td>
                <Table.Td>{row.os_family ? (CONSOLE_TEXTS.os[row.os_family] ?? row.os_family) : '—'}</Table.Td>
                <Table.Td>{row.group_name || T.defaultGroup}</Table.Td>
                <Table.Td>{row.tags.join(', ')}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[row.status]} variant="light" styles={{ label: { overflow: 'visible' } }}>
                    {T.status[row.status] ?? row.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {row.errors.length + row.warnings.length > 0 && (
                    <List size="xs" spacing={2}>
                      {[...row.errors, ...row.warnings].map((message) => (
                        <List.Item key={message}>{message}</List.Item>
                      ))}
                    </List>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length > shown.length && (
        <Text size="xs" c="dimmed">
          {T.shownRows(shown.length, rows.length)}
        </Text>
      )}
    </Stack>
  );
}
