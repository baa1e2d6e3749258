import { Badge, Table, Text } from '@mantine/core';
import { formatUtc } from '../../../../ui/format-date';
import { useScheduleSends } from '../schedules.api';
import { SCHEDULES_TEXTS } from '../schedules.texts';

const T = SCHEDULES_TEXTS;
const STATUS_COLOR: Record<string, string> = {
  pending: 'gray',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  queued: 'yellow',
};

/** A schedule's last ten sends: due time, status, rows and the relay's error. */
export function ScheduleSends({ zoneId, scheduleId, name }: { zoneId: number; scheduleId: number; name: string }) {
  const sends = useScheduleSends(zoneId, scheduleId);
  if (!sends.data) return null;
  if (!sends.data.data.length) {
    return (
      <Text size="sm" c="dimmed">
        {T.noSends}
      </Text>
    );
  }
  return (
    <Table aria-label={T.sendsLabel(name)} withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{T.columns.due}</Table.Th>
          <Table.Th>{T.columns.status}</Table.Th>
          <Table.Th>{T.columns.rows}</Table.Th>
          <Table.Th>{T.columns.error}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sends.data.data.map((s) => (
          <Table.Tr key={s.id}>
            <Table.Td>
              {formatUtc(s.due_at)}
              {s.manual && (
                <Text size="xs" c="dimmed">
                  {T.manual}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATUS_COLOR[s.status] ?? 'gray'}>
                {T.statuses[s.status]}
              </Badge>
            </Table.Td>
            <Table.Td>{s.row_count ?? '—'}</Table.Td>
            <Table.Td>
              {s.error ? (
                <Text size="xs" c="red.8">
                  {s.error}
                </Text>
              ) : (
                '—'
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
