import type { ApiKey } from '@patchwell/core/users/api-keys.schema';
import { Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { CreateKeyDialog } from './components/CreateKeyDialog';
import { keyKeys, revokeApiKey, useApiKeys } from './keys.api';

/** /settings/keys: the user's API keys; create (shown once) and revoke. */
export function KeysPage() {
  usePageTitle(CONSOLE_TEXTS.keys.title);
  const { profile, zoneId = 0 } = useShell();
  const queryClient = useQueryClient();
  const keys = useApiKeys(zoneId);
  const [isCreateOpen, setCreateOpen] = useState(false);
  const zoneName = (id: number | null) =>
    id === null ? CONSOLE_TEXTS.keys.allZones : (profile.orgs.find((o) => o.id === id)?.name ?? `#${id}`);
  const refresh = () => queryClient.invalidateQueries({ queryKey: keyKeys.all });

  const onRevoke = (key: ApiKey) =>
    confirmAction({
      title: CONSOLE_TEXTS.keys.revokeTitle,
      message: CONSOLE_TEXTS.keys.revokeBody(key.name),
      confirmLabel: CONSOLE_TEXTS.keys.revoke,
      isDanger: true,
      onConfirm: () =>
        void revokeApiKey(zoneId, key.id).then(
          async () => {
            notify.success(CONSOLE_TEXTS.keys.revoked(key.name));
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {CONSOLE_TEXTS.keys.title}
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setCreateOpen(true)}>
          {CONSOLE_TEXTS.keys.createTitle}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {CONSOLE_TEXTS.keys.description}
      </Text>
      <QueryTable
        label={CONSOLE_TEXTS.keys.title}
        query={keys}
        columns={[
          { key: 'name', header: CONSOLE_TEXTS.keys.name },
          { key: 'prefix', header: CONSOLE_TEXTS.keys.prefix },
          { key: 'zone', header: CONSOLE_TEXTS.keys.zone },
          { key: 'created', header: CONSOLE_TEXTS.keys.created },
          { key: 'used', header: CONSOLE_TEXTS.keys.lastUsed },
          { key: 'expires', header: CONSOLE_TEXTS.keys.expires },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(key) => key.id}
        empty={CONSOLE_TEXTS.keys.empty}
        renderCells={(key) => (
          <>
            <Table.Td>{key.name}</Table.Td>
            <Table.Td>
              <Code>{key.prefix}…</Code>
            </Table.Td>
            <Table.Td>{zoneName(key.zone_id)}</Table.Td>
            <Table.Td>{formatUtc(key.created_at)}</Table.Td>
            <Table.Td>{key.last_used_at ? formatUtc(key.last_used_at) : CONSOLE_TEXTS.keys.never}</Table.Td>
            <Table.Td>{key.expires_at ? formatUtc(key.expires_at) : CONSOLE_TEXTS.keys.never}</Table.Td>
            <Table.Td>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={() => onRevoke(key)}
                aria-label={`${CONSOLE_TEXTS.keys.revoke}: ${key.name}`}
              >
                {CONSOLE_TEXTS.keys.revoke}
              </Button>
            </Table.Td>
          </>
        )}
      />
      <CreateKeyDialog
        opened={isCreateOpen}
        zoneId={zoneId}
        zones={profile.orgs}
        canChooseAllZones={profile.is_global_admin && profile.account_id !== null}
        onClose={() => setCreateOpen(false)}
        onCreated={() => void refresh()}
      />
    </Stack>
  );
}
