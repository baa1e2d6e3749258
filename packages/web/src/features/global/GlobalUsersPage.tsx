import { GLOBAL_ADMIN_ROLE_NAME } from '@patchwell/core/zones/roles';
import type { AccountUser } from '@patchwell/core/users/users.schema';
import { Anchor, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { UserStatusBadges } from '../users/components/UserStatusBadges';
import { useAccountUsers } from '../users/users.api';

/** Users whose name or e-mail contains the query, ignoring case. */
export function filterUsers<T extends { firstname: string; lastname: string; email: string }>(
  users: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...users];
  return users.filter((u) =>
    [`${u.firstname} ${u.lastname}`, u.email].some((v) => v.toLocaleLowerCase().includes(needle)),
  );
}

const fullName = (u: AccountUser) => `${u.firstname} ${u.lastname}`.trim() || u.email;

/** /global/setup/users: the account's users, their zones and statuses, with search. */
export function GlobalUsersPage() {
  usePageTitle(CONSOLE_TEXTS.globalUsers.title);
  const { profile, zoneId } = useShell();
  const users = useAccountUsers(profile.account_id ?? 0);
  const [query, setQuery] = useState('');
  const visible = filterUsers(users.data ?? [], query);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {CONSOLE_TEXTS.globalUsers.title}
        </Title>
        <Button
          component={Link}
          to={withZone(PATHS.globalCreateUser, zoneId)}
          leftSection={<IconPlus size={16} aria-hidden="true" />}
        >
          {CONSOLE_TEXTS.globalUsers.create}
        </Button>
      </Group>
      <TextInput
        type="search"
        aria-label={CONSOLE_TEXTS.globalUsers.search}
        placeholder={CONSOLE_TEXTS.globalUsers.search}
        leftSection={<IconSearch size={14} aria-hidden="true" />}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        maw={360}
      />
      <QueryTable
        label={CONSOLE_TEXTS.globalUsers.title}
        query={{ ...users, data: users.data && visible }}
        columns={[
          { key: 'name', header: CONSOLE_TEXTS.users.name },
          { key: 'email', header: CONSOLE_TEXTS.users.email },
          { key: 'role', header: CONSOLE_TEXTS.userEditor.accountRole },
          { key: 'zones', header: CONSOLE_TEXTS.userEditor.zones },
          { key: 'status', header: CONSOLE_TEXTS.users.statusLabel },
        ]}
        rowKey={(user) => user.id}
        empty={CONSOLE_TEXTS.common.noResults}
        renderCells={(user) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={withZone(pathTo(PATHS.globalUserDetail, { userId: user.id }), zoneId)}>
                {fullName(user)}
              </Anchor>
            </Table.Td>
            <Table.Td>{user.email}</Table.Td>
            <Table.Td>
              {user.account_rbac_role === 'global-admin'
                ? GLOBAL_ADMIN_ROLE_NAME
                : CONSOLE_TEXTS.userEditor.noGlobalAccess}
            </Table.Td>
            <Table.Td>
              {user.zones.length === 0 ? '—' : user.zones.map((z) => `${z.zone_name} (${z.role_name})`).join(', ')}
            </Table.Td>
            <Table.Td>
              <UserStatusBadges status={user.status} locked={user.locked} />
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
