import { WEBHOOK_EVENT_LABELS, type Webhook } from '@patchwell/core/webhooks/webhooks.schema';
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { DeliveryLog } from './components/DeliveryLog';
import { WebhookDialog } from './components/WebhookDialog';
import { deleteWebhook, pingWebhook, rotateWebhookSecret, useWebhooks, webhookKeys } from './webhooks.api';
import { ActionMenu } from '../../ui/menu/ActionMenu';

const T = CONSOLE_TEXTS.webhooks;

type DialogState = { webhook?: Webhook; secret?: string } | null;

/** /settings/webhooks (Organization.manage): the zone's webhooks and their delivery logs. */
export function WebhooksPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks(zoneId);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });

  const onPing = (w: Webhook) =>
    void pingWebhook(zoneId, w.id).then(
      async () => {
        notify.success(T.testQueued);
        setLogOf(w);
        await refresh();
      },
      (error: unknown) => notify.apiError(error),
    );

  const onRotate = (w: Webhook) =>
    confirmAction({
      title: T.rotateTitle,
      message: T.rotateBody(w.url),
      confirmLabel: T.rotate,
      onConfirm: () =>
        void rotateWebhookSecret(zoneId, w.id).then(
          (rotated) => setDialog({ webhook: rotated, secret: rotated.secret }),
          (error: unknown) => notify.apiError(error),
        ),
    });

  const onDelete = (w: Webhook) =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(w.url),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteWebhook(zoneId, w.id).then(
          async () => {
            notify.success(T.deleted);
            if (logOf?.id === w.id) setLogOf(null);
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {T.title}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setDialog({})}>
          {T.create}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {T.description}
      </Text>
      <QueryTable
        label={T.title}
        query={{ data: webhooks.data?.data, isPending: webhooks.isPending, isError: webhooks.isError }}
        columns={[
          { key: 'url', header: T.url },
          { key: 'events', header: T.events },
          { key: 'status', header: T.status },
          { key: 'created', header: T.created },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(w) => w.id}
        empty={T.empty}
        renderCells={(w) => (
          <>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {w.url}
              </Text>
            </Table.Td>
            <Table.Td>{w.event_types.map((e) => WEBHOOK_EVENT_LABELS[e]).join(', ')}</Table.Td>
            <Table.Td>
              <Badge color={w.enabled ? 'green' : 'gray'} variant="light">
                {w.enabled ? T.enabled : T.disabled}
              </Badge>
            </Table.Td>
            <Table.Td>{formatUtc(w.created_at)}</Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Button size="compact-sm" variant="subtle" onClick={() => setLogOf(w)}>
                  {T.showDeliveries}
                </Button>
                <ActionMenu
                  target={
                    <Button size="compact-sm" variant="subtle" aria-label={`${CONSOLE_TEXTS.common.actions}: ${w.url}`}>
                      <IconDots size={16} aria-hidden="true" />
                    </Button>
                  }
                  entries={() => [
                    { label: T.edit, onClick: () => setDialog({ webhook: w }) },
                    { label: T.sendTest, onClick: () => onPing(w) },
                    { label: T.rotate, onClick: () => onRotate(w) },
                    { label: T.delete, color: 'red', onClick: () => onDelete(w) },
                  ]}
                />
              </Group>
            </Table.Td>
          </>
        )}
      />
      {logOf && <DeliveryLog zoneId={zoneId} webhook={logOf} />}
      <WebhookDialog
        opened={dialog !== null}
        zoneId={zoneId}
        webhook={dialog?.secret ? undefined : dialog?.webhook}
        secret={dialog?.secret}
        onClose={() => setDialog(null)}
        onSaved={() => void refresh()}
      />
    </Stack>
  );
}
