import type { ZoneUser } from '@patchwell/core/users/users.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Button, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { parseRoleId } from '../role-options';
import { useZoneRoleOptions } from '../use-role-options';

/** Chooses a new role for a user of the zone; confirming is the second step. */
export function ChangeRoleDialog({
  user,
  onClose,
  onConfirm,
}: {
  user: ZoneUser | null;
  onClose: () => void;
  onConfirm: (user: ZoneUser, roleId: number) => Promise<void>;
}) {
  return (
    <Modal opened={user !== null} onClose={onClose} title={CONSOLE_TEXTS.users.changeRoleTitle} size="sm">
      {user && <ChangeRoleForm key={user.id} user={user} onClose={onClose} onConfirm={onConfirm} />}
    </Modal>
  );
}

function ChangeRoleForm({
  user,
  onClose,
  onConfirm,
}: {
  user: ZoneUser;
  onClose: () => void;
  onConfirm: (user: ZoneUser, roleId: number) => Promise<void>;
}) {
  const [value, setValue] = useState(String(user.role.id));
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const name = `${user.firstname} ${user.lastname}`.trim() || user.email;
  const roles = useZoneRoleOptions(user.role.id);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const roleId = parseRoleId(value);
    if (roleId === undefined) {
      setError(TEXTS.users.roleRequired);
      return;
    }
    setSaving(true);
    try {
      await onConfirm(user, roleId);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm">{CONSOLE_TEXTS.users.changeRoleBody(name, user.role.name)}</Text>
        <NativeSelect
          label={CONSOLE_TEXTS.users.newRole}
          description={roles.planNote}
          data={roles.options}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setError(null);
          }}
          error={error}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {CONSOLE_TEXTS.common.cancel}
          </Button>
          <Button type="submit" loading={isSaving} disabled={value === String(user.role.id)}>
            {CONSOLE_TEXTS.users.changeRole}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
