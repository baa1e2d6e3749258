import type { ActivityEvent } from '@patchwell/core/activity/activity.schema';
import { Badge, Code, Group, Table, Text } from '@mantine/core';
import { formatUtc } from '../../../ui/format-date';
import { ACTIVITY_LOG_TEXTS as T } from '../activity-log.texts';

const COLUMNS = [T.time, T.who, T.action, T.object, T.summary, T.clientAddress];

function Who({ event }: { event: ActivityEvent }) {
  const name = event.actor.name ?? (event.actor.type === 'system' ? T.system : '—');
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{name}</Text>
      {event.via !== 'session' && (
        <Badge size="xs" variant="light" color="gray">
          {T.via[event.via] ?? event.via}
        </Badge>
      )}
    </Group>
  );
}

/** A page of activity-log events: when, who (and through what), the action, its object and summary. */
export function ActivityTable({ events, label = T.tableLabel }: { events: readonly ActivityEvent[]; label?: string }) {
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped highlightOnHover withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c} scope="col">
                {c}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatUtc(e.created_at)}</Table.Td>
              <Table.Td>
                <Who event={e} />
              </Table.Td>
              <Table.Td>
                <Code>{e.action}</Code>
              </Table.Td>
              <Table.Td>
                {e.object.type} {e.object.name ?? e.object.id ?? ''}
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{e.summary || '—'}</Table.Td>
              <Table.Td>{e.client_address ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
