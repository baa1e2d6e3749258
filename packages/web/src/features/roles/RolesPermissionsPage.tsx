import { TEXTS } from '@patchwell/core/texts';
import type { PermissionsInfo, RbacRole } from '@patchwell/core/zones/zones.schema';
import { Alert, Box, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { Fragment } from 'react';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { usePermissionsInfo, useRbacRoles } from './roles.api';

/** 'PatchPolicy' → 'Patch Policy'. */
export function resourceLabel(resource: string): string {
  return resource.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^TFA$/, 'Two-Factor Authentication');
}

const actionLabel = (action: string) => action.charAt(0).toUpperCase() + action.slice(1);

/**
 * The roles × permissions matrix: one row per resource and action, grouped by resource,
 * one column per role, a check mark where the role grants it.
 */
export function PermissionMatrix({ roles, info }: { roles: RbacRole[]; info: PermissionsInfo }) {
  const granted = new Map(roles.map((r) => [r.id, new Set(r.permissions)]));
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped withTableBorder stickyHeader aria-label={CONSOLE_TEXTS.roles.matrixLabel}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{CONSOLE_TEXTS.roles.permission}</Table.Th>
            {roles.map((role) => (
              <Table.Th key={role.id} scope="col" ta="center">
                {role.name}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.entries(info.resources).map(([resource, actions]) => (
            <Fragment key={resource}>
              <Table.Tr bg="gray.1">
                <Table.Th scope="colgroup" colSpan={roles.length + 1}>
                  {resourceLabel(resource)}
                </Table.Th>
              </Table.Tr>
              {actions.map((action) => {
                const key = `${resource}.${action}`;
                return (
                  <Table.Tr key={key}>
                    <Table.Th scope="row" fw={400} pl="xl">
                      <VisuallyHidden>{resourceLabel(resource)}</VisuallyHidden> {actionLabel(action)}
                    </Table.Th>
                    {roles.map((role) => (
                      <Table.Td key={role.id} ta="center">
                        {granted.get(role.id)?.has(key) ? (
                          <>
                            <IconCheck size={18} color="var(--mantine-color-green-8)" aria-hidden="true" />
                            <VisuallyHidden>{CONSOLE_TEXTS.roles.granted}</VisuallyHidden>
                          </>
                        ) : (
                          <>
                            <IconMinus size={14} color="var(--mantine-color-gray-5)" aria-hidden="true" />
                            <VisuallyHidden>{CONSOLE_TEXTS.roles.notGranted}</VisuallyHidden>
                          </>
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** /global/setup/roles-and-permissions (spec A section 6). */
export function RolesPermissionsPage() {
  usePageTitle(CONSOLE_TEXTS.roles.title);
  const { zoneId } = useShell();
  const roles = useRbacRoles(zoneId);
  const info = usePermissionsInfo();
  return (
    <Stack gap="md">
      <Title order={2} fz="h3">
        {CONSOLE_TEXTS.roles.title}
      </Title>
      {roles.isError && (
        <Alert color="red" role="alert">
          {TEXTS.roles.rolesLoadFailed}
        </Alert>
      )}
      {info.isError && (
        <Alert color="red" role="alert">
          {TEXTS.roles.permissionsLoadFailed}
        </Alert>
      )}
      {(roles.isPending || info.isPending) && !roles.isError && !info.isError && (
        <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />
      )}
      {roles.data && (
        <Box component="dl" m={0}>
          {roles.data.map((role) => (
            <Box key={role.id} mb={4} fz="sm">
              <Text component="dt" fw={600} size="sm" display="inline">
                {role.name}:
              </Text>{' '}
              <Text component="dd" size="sm" display="inline" m={0}>
                {role.description}
              </Text>
            </Box>
          ))}
        </Box>
      )}
      {roles.data && info.data && <PermissionMatrix roles={roles.data} info={info.data} />}
    </Stack>
  );
}
