import type { InviteUserResult, ZoneUser } from '@patchwell/core/users/users.schema';
import { ActionIcon, Button, Group, Modal, Stack, Table, Title } from '@mantine/core';
import { IconDots, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { canFor } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { ChangeRoleDialog } from './components/ChangeRoleDialog';
import { InvitationOutcome, isMailHeld } from './components/InvitationOutcome';
import { InviteUserDialog } from './components/InviteUserDialog';
import { UserStatusBadges } from './components/UserStatusBadges';
import { removeZoneUser, resendInvitation, unlockUser, updateZoneUser, useZoneUsers, userKeys } from './users.api';
import { resetUserMfa } from '../mfa/mfa.api';
import { TEXTS } from '@patchwell/core/texts';
import { ActionMenu } from '../../ui/menu/ActionMenu';

const fullName = (u: ZoneUser) => `${u.firstname} ${u.lastname}`.trim() || u.email;

/** /settings/users: the zone's user accounts; invite (and resend), change role, disable, remove, unlock, reset MFA. */
export function UsersPage() {
  usePageTitle(CONSOLE_TEXTS.users.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const queryClient = useQueryClient();
  const refreshProfile = useRefreshProfile(zoneId);
  const users = useZoneUsers(zoneId);
  const [isInviteOpen, setInviteOpen] = useState(false);
  const [roleTarget, setRoleTarget] = useState<ZoneUser | null>(null);
  const [resent, setResent] = useState<{ email: string; result: InviteUserResult } | null>(null);

  const onResend = (user: ZoneUser) =>
    void resendInvitation(zoneId, user.id).then(
      async (result) => {
        if (isMailHeld(result)) setResent({ email: user.email, result });
        else notify.success(CONSOLE_TEXTS.users.resent(user.email));
        await afterChange();
      },
      (error: unknown) => notify.apiError(error),
    );

  const afterChange = async () => {
    await queryClient.invalidateQueries({ queryKey: userKeys.all });
    await refreshProfile();
  };

  const run = (action: () => Promise<unknown>, success: string) =>
    void action().then(
      async () => {
        notify.success(success);
        await afterChange();
      },
      (error: unknown) => notify.apiError(error),
    );

  const onChangeRole = async (user: ZoneUser, roleId: number) => {
    try {
      await updateZoneUser(zoneId, user.id, { role_id: roleId });
      notify.success(CONSOLE_TEXTS.users.roleChanged(fullName(user)));
      setRoleTarget(null);
      await afterChange();
    } catch (error) {
      void notify.apiError(error);
    }
  };

  const onStatus = (user: ZoneUser) => {
    const disabling = user.status !== 'disabled';
    const name = fullName(user);
    confirmAction({
      title: disabling ? CONSOLE_TEXTS.users.disableTitle : CONSOLE_TEXTS.users.enableTitle,
      message: disabling ? CONSOLE_TEXTS.users.disableBody(name) : CONSOLE_TEXTS.users.enableBody(name),
      confirmLabel: disabling ? CONSOLE_TEXTS.users.disable : CONSOLE_TEXTS.users.enable,
      isDanger: disabling,
      onConfirm: () =>
        run(
          () => updateZoneUser(zoneId, user.id, { status: disabling ? 'disabled' : 'active' }),
          disabling ? CONSOLE_TEXTS.users.disabled(name) : CONSOLE_TEXTS.users.enabled(name),
        ),
    });
  };

  const onRemove = (user: ZoneUser) =>
    confirmAction({
      title: CONSOLE_TEXTS.users.removeTitle,
      message: CONSOLE_TEXTS.users.removeBody(fullName(user)),
      confirmLabel: CONSOLE_TEXTS.users.remove,
      isDanger: true,
      onConfirm: () => run(() => removeZoneUser(zoneId, user.id), CONSOLE_TEXTS.users.removed),
    });

  const onUnlock = (user: ZoneUser) =>
    confirmAction({
      title: CONSOLE_TEXTS.users.unlockTitle,
      message: CONSOLE_TEXTS.users.unlockBody(fullName(user)),
      confirmLabel: CONSOLE_TEXTS.users.unlock,
      onConfirm: () => run(() => unlockUser(zoneId, user.id), CONSOLE_TEXTS.users.unlocked(fullName(user))),
    });

  const onResetMfa = (user: ZoneUser) =>
    confirmAction({
      title: CONSOLE_TEXTS.mfa.resetTitle,
      message: CONSOLE_TEXTS.mfa.resetBody(fullName(user)),
      confirmLabel: CONSOLE_TEXTS.mfa.resetMfa,
      isDanger: true,
      onConfirm: () => run(() => resetUserMfa(zoneId, user.id), TEXTS.success.mfaReset),
    });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {CONSOLE_TEXTS.users.title}
        </Title>
        {can('Users', 'invite') && (
          <Button leftSection={<IconUserPlus size={16} aria-hidden="true" />} onClick={() => setInviteOpen(true)}>
            {CONSOLE_TEXTS.users.inviteTitle}
          </Button>
        )}
      </Group>
      <QueryTable
        label={CONSOLE_TEXTS.users.title}
        query={users}
        columns={[
          { key: 'name', header: CONSOLE_TEXTS.users.name },
          { key: 'email', header: CONSOLE_TEXTS.users.email },
          { key: 'role', header: CONSOLE_TEXTS.users.role },
          { key: 'status', header: CONSOLE_TEXTS.users.statusLabel },
          { key: 'signin', header: CONSOLE_TEXTS.users.lastSignIn },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(user) => user.id}
        empty={CONSOLE_TEXTS.users.empty}
        renderCells={(user) => {
          const isSelf = user.id === profile.id;
          const canModify = can('Users', 'modify') && !isSelf;
          // A global administrator's role changes only in global user management (spec A section 6).
          const canChangeRole = canModify && user.account_rbac_role !== 'global-admin';
          const canToggle = canModify && user.status !== 'pending-invite';
          const canRemove = can('Users', 'delete') && !isSelf;
          const canUnlock = can('Users', 'modify') && user.locked;
          const canResend = can('Users', 'invite') && user.status === 'pending-invite';
          const canResetMfa = can('TFA', 'delete') && user.tfa_enabled;
          const hasActions = canChangeRole || canToggle || canRemove || canUnlock || canResend || canResetMfa;
          return (
            <>
              <Table.Td>{fullName(user)}</Table.Td>
              <Table.Td>{user.email}</Table.Td>
              <Table.Td>{user.role.name}</Table.Td>
              <Table.Td>
                <UserStatusBadges status={user.status} locked={user.locked} />
              </Table.Td>
              <Table.Td>{user.last_signin_at ? formatUtc(user.last_signin_at) : CONSOLE_TEXTS.keys.never}</Table.Td>
              <Table.Td>
                {hasActions && (
                  <ActionMenu
                    target={
                      <ActionIcon
                        variant="subtle"
                        color="gray.8"
                        aria-label={CONSOLE_TEXTS.users.actionsFor(fullName(user))}
                      >
                        <IconDots size={16} aria-hidden="true" />
                      </ActionIcon>
                    }
                    entries={() => [
                      canChangeRole && { label: CONSOLE_TEXTS.users.changeRole, onClick: () => setRoleTarget(user) },
                      canResend && { label: CONSOLE_TEXTS.users.resend, onClick: () => onResend(user) },
                      canUnlock && { label: CONSOLE_TEXTS.users.unlock, onClick: () => onUnlock(user) },
                      canResetMfa && { label: CONSOLE_TEXTS.mfa.resetMfa, onClick: () => onResetMfa(user) },
                      canToggle && {
                        label: user.status === 'disabled' ? CONSOLE_TEXTS.users.enable : CONSOLE_TEXTS.users.disable,
                        onClick: () => onStatus(user),
                      },
                      canRemove && { label: CONSOLE_TEXTS.users.remove, color: 'red', onClick: () => onRemove(user) },
                    ]}
                  />
                )}
              </Table.Td>
            </>
          );
        }}
      />
      <InviteUserDialog
        opened={isInviteOpen}
        zoneId={zoneId}
        onClose={() => setInviteOpen(false)}
        onInvited={() => void afterChange()}
      />
      <ChangeRoleDialog user={roleTarget} onClose={() => setRoleTarget(null)} onConfirm={onChangeRole} />
      <Modal opened={resent !== null} onClose={() => setResent(null)} title={CONSOLE_TEXTS.users.resentTitle} size="lg">
        {resent && (
          <Stack gap="md">
            <InvitationOutcome email={resent.email} result={resent.result} />
            <Group justify="flex-end">
              <Button onClick={() => setResent(null)}>{CONSOLE_TEXTS.users.done}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
