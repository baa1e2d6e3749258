import { zodResolver } from '@hookform/resolvers/zod';
import { TEXTS } from '@patchwell/core/texts';
import type { AccountUser } from '@patchwell/core/users/users.schema';
import { Alert, Button, Group, Loader, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { notify } from '../../../ui/notify';
import { ZONE_ROLE_OPTIONS } from '../../users/role-options';
import { updateAccountUser, useAccountUsers, userKeys } from '../../users/users.api';
import { zoneKeys } from '../../zones/zones.api';

/** Adding a user to a zone (spec A section 5, zone user assignment). */
export function zoneAssignmentSchema(memberIds: ReadonlySet<number>) {
  return z
    .object({
      user_id: z.string().min(1, TEXTS.users.userRequired),
      role_id: z.string().min(1, TEXTS.users.roleRequired),
    })
    .refine((v) => !memberIds.has(Number(v.user_id)), { path: ['user_id'], message: TEXTS.users.alreadyInZone });
}
type AssignmentInput = { user_id: string; role_id: string };

const fullName = (u: AccountUser) => `${u.firstname} ${u.lastname}`.trim() || u.email;
const pairsOf = (u: AccountUser) => u.zones.map((z) => ({ zone_id: z.zone_id, role_id: z.role_id }));

/** The users of one zone in global setup, with adding a user (and role) and removing one. */
export function ZoneMembersPanel({
  accountId,
  zoneId,
  onDirtyChange,
  onChanged,
}: {
  accountId: number;
  /** The zone being edited. */
  zoneId: number;
  onDirtyChange?: (isDirty: boolean) => void;
  /** After a membership changed (the caller refreshes the profile). */
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const users = useAccountUsers(accountId);
  const members = useMemo(
    () => (users.data ?? []).filter((u) => u.zones.some((z) => z.zone_id === zoneId)),
    [users.data, zoneId],
  );
  const memberIds = useMemo(() => new Set(members.map((m) => m.id)), [members]);
  const schema = useMemo(() => zoneAssignmentSchema(memberIds), [memberIds]);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<AssignmentInput>({
    resolver: zodResolver(schema),
    defaultValues: { user_id: '', role_id: '' },
  });

  useEffect(() => onDirtyChange?.(isDirty), [isDirty, onDirtyChange]);

  const afterChange = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
      queryClient.invalidateQueries({ queryKey: zoneKeys.accountZones(accountId) }),
    ]);
    onChanged?.();
  };

  const onAdd = async (values: AssignmentInput) => {
    const user = users.data?.find((u) => u.id === Number(values.user_id));
    if (!user) return;
    try {
      await updateAccountUser(accountId, user.id, {
        zones: [...pairsOf(user), { zone_id: zoneId, role_id: Number(values.role_id) }],
      });
      notify.success(CONSOLE_TEXTS.zoneMembers.added(fullName(user)));
      reset();
      await afterChange();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      const message = Object.entries(fieldErrors).find(([key]) => key.startsWith('zones'))?.[1];
      if (message) setError('user_id', { type: 'server', message });
      else notify.error(errorText(error));
    }
  };

  const onRemove = (user: AccountUser) =>
    confirmAction({
      title: CONSOLE_TEXTS.zoneMembers.removeTitle,
      message: CONSOLE_TEXTS.zoneMembers.removeBody(fullName(user)),
      confirmLabel: CONSOLE_TEXTS.zoneMembers.remove,
      isDanger: true,
      onConfirm: () =>
        void updateAccountUser(accountId, user.id, { zones: pairsOf(user).filter((p) => p.zone_id !== zoneId) }).then(
          async () => {
            notify.success(CONSOLE_TEXTS.zoneMembers.removed(fullName(user)));
            await afterChange();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  const candidates = (users.data ?? []).filter((u) => !memberIds.has(u.id));

  return (
    <Stack gap="sm">
      <Title order={3} fz="h4">
        {CONSOLE_TEXTS.zoneMembers.title}
      </Title>
      {users.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {users.isError && (
        <Alert color="red" role="alert">
          {TEXTS.generic.pageLoadFailed}
        </Alert>
      )}
      {users.data && (
        <Table withTableBorder aria-label={CONSOLE_TEXTS.zoneMembers.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{CONSOLE_TEXTS.users.name}</Table.Th>
              <Table.Th scope="col">{CONSOLE_TEXTS.users.email}</Table.Th>
              <Table.Th scope="col">{CONSOLE_TEXTS.users.role}</Table.Th>
              <Table.Th scope="col">{CONSOLE_TEXTS.common.actions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text size="sm" c="dimmed">
                    {CONSOLE_TEXTS.zoneMembers.empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {members.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{fullName(user)}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>{user.zones.find((z) => z.zone_id === zoneId)?.role_name}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    onClick={() => onRemove(user)}
                    aria-label={`${CONSOLE_TEXTS.zoneMembers.remove}: ${fullName(user)}`}
                  >
                    {CONSOLE_TEXTS.zoneMembers.remove}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form onSubmit={handleSubmit(onAdd)} noValidate aria-label={CONSOLE_TEXTS.zoneMembers.addTitle}>
        <Group align="flex-start" gap="sm">
          <NativeSelect
            label={CONSOLE_TEXTS.zoneMembers.user}
            data={[
              { value: '', label: CONSOLE_TEXTS.zoneMembers.chooseUser },
              ...candidates.map((u) => ({ value: String(u.id), label: `${fullName(u)} (${u.email})` })),
            ]}
            {...register('user_id')}
            error={errors.user_id?.message}
            w={320}
          />
          <NativeSelect
            label={CONSOLE_TEXTS.users.role}
            data={[{ value: '', label: CONSOLE_TEXTS.users.chooseRole }, ...ZONE_ROLE_OPTIONS]}
            {...register('role_id')}
            error={errors.role_id?.message}
            w={240}
          />
          <Button type="submit" mt={25} loading={isSubmitting} variant="light">
            {CONSOLE_TEXTS.zoneMembers.add}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
