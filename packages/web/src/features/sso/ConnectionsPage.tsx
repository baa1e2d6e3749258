import { PROVISION_TYPE_LABELS } from '@patchwell/core/sso/connections.schema';
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { useConnections } from './sso.api';
import { SSO_TEXTS } from './sso.texts';

const T = SSO_TEXTS.connections;

/** /global/setup/authentication: the account's SAML connections. */
export function ConnectionsPage() {
  usePageTitle(T.title);
  const { profile, zoneId } = useShell();
  const connections = useConnections(profile.account_id ?? 0);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {T.title}
        </Title>
        <Button
          component={Link}
          to={withZone(PATHS.globalCreateConnection, zoneId)}
          leftSection={<IconPlus size={16} aria-hidden="true" />}
        >
          {T.create}
        </Button>
      </Group>
      <Text size="sm">{T.intro}</Text>
      <QueryTable
        label={T.title}
        query={{ ...connections, data: connections.data?.data }}
        columns={[
          { key: 'name', header: T.name },
          { key: 'provision', header: T.provisionType },
          { key: 'domains', header: T.domains },
          { key: 'idp', header: T.idp },
        ]}
        rowKey={(c) => c.id}
        empty={T.empty}
        renderCells={(c) => (
          <>
            <Table.Td>
              <Anchor
                component={Link}
                to={withZone(pathTo(PATHS.globalConnectionDetail, { connectionId: c.id }), zoneId)}
              >
                {c.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{PROVISION_TYPE_LABELS[c.provision_type]}</Table.Td>
            <Table.Td>
              <Group gap={4}>
                {c.domains.map((d) => (
                  <Badge key={d.id} variant="light" color={d.status === 'verified' ? 'green' : 'yellow'}>
                    {d.name}
                  </Badge>
                ))}
              </Group>
            </Table.Td>
            <Table.Td>{c.idp.entity_id}</Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
