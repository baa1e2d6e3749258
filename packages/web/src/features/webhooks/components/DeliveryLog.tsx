import {
  WEBHOOK_DELIVERY_STATUSES,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from '@patchwell/core/webhooks/webhooks.schema';
import { Badge, Button, Group, NativeSelect, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { notify } from '../../../ui/notify';
import { QueryTable } from '../../../ui/QueryTable';
import { redeliverDelivery, useDeliveries, webhookKeys } from '../webhooks.api';

const T = CONSOLE_TEXTS.webhooks;
const COLOURS: Record<WebhookDeliveryStatus, string> = { pending: 'yellow', delivered: 'green', failed: 'red' };
const PAGE = 25;

/** A webhook's deliveries: status, attempts, last answer, next retry; redeliver one. */
export function DeliveryLog({ zoneId, webhook }: { zoneId: number; webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [page, setPage] = useState(0);
  const deliveries = useDeliveries(zoneId, webhook.id, status, page);
  const pages = Math.max(1, Math.ceil((deliveries.data?.size ?? 0) / PAGE));

  const onRedeliver = (d: WebhookDelivery) =>
    void redeliverDelivery(zoneId, webhook.id, d.id).then(
      async () => {
        notify.success(T.redelivered);
        await queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      },
      (error: unknown) => notify.apiError(error),
    );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} fz="h4">
          {T.deliveriesOf(webhook.url)}
        </Title>
        <NativeSelect
          aria-label={T.status}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as WebhookDeliveryStatus | '');
            setPage(0);
          }}
          data={[
            { value: '', label: T.allStatuses },
            ...WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: s })),
          ]}
        />
      </Group>
      <QueryTable
        label={T.deliveries}
        query={{ data: deliveries.data?.data, isPending: deliveries.isPending, isError: deliveries.isError }}
        columns={[
          { key: 'event', header: T.event },
          { key: 'status', header: T.status },
          { key: 'attempts', header: T.attempts },
          { key: 'response', header: T.response },
          { key: 'next', header: T.nextRetry },
          { key: 'created', header: T.created },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(d) => d.id}
        empty={T.noDeliveries}
        renderCells={(d) => (
          <>
            <Table.Td>
              <Text size="sm">{d.event_type}</Text>
              <Text size="xs" c="dimmed">
                #{d.id}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={COLOURS[d.status]} variant="light">
                {d.status}
              </Badge>
            </Table.Td>
            <Table.Td>{d.attempts}</Table.Td>
            <Table.Td>
              <Text size="sm">{d.last_status_code ?? '—'}</Text>
              {d.last_error && (
                <Text size="xs" c="dimmed">
                  {d.last_error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{d.next_attempt_at ? formatUtc(d.next_attempt_at) : '—'}</Table.Td>
            <Table.Td>{formatUtc(d.created_at)}</Table.Td>
            <Table.Td>
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => onRedeliver(d)}
                aria-label={`${T.redeliver}: #${d.id}`}
              >
                {T.redeliver}
              </Button>
            </Table.Td>
          </>
        )}
      />
      {pages > 1 && <Pagination value={page + 1} onChange={(p) => setPage(p - 1)} total={pages} />}
    </Stack>
  );
}
