import { Anchor, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from './groups.api';

const T = CONSOLE_TEXTS.groups;

/** /manage/groups: the zone's device groups with their device counts. */
export function GroupsPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const groups = useGroups(zoneId);
  const nameOf = (id: number | null) => groups.data?.find((g) => g.id === id)?.name ?? '—';
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        {can('ServerGroup', 'create') && (
          <Button
            component={Link}
            to={withZone(PATHS.groupCreate, zoneId)}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            {T.create}
          </Button>
        )}
      </Group>
      {groups.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {groups.data && groups.data.length === 0 && <Text c="dimmed">{T.empty}</Text>}
      {groups.data && groups.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped withTableBorder aria-label={T.tableLabel}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{T.name}</Table.Th>
                <Table.Th scope="col">{T.parent}</Table.Th>
                <Table.Th scope="col">{T.devices}</Table.Th>
                <Table.Th scope="col">{T.interval}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.data.map((g) => (
                <Table.Tr key={g.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={withZone(pathTo(PATHS.groupDetail, { groupId: g.id }), zoneId)}>
                        {g.name}
                      </Anchor>
                      {g.default && (
                        <Badge variant="light" color="gray">
                          {T.default}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{nameOf(g.parent_server_group_id)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={withZone(PATHS.devices, zoneId, { group: String(g.id) })}>
                      {T.deviceCount(g.server_count)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{g.checkin_interval_s}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
