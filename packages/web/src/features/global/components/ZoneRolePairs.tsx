import type { Zone } from '@patchwell/core/zones/zones.schema';
import { ActionIcon, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../../../texts';
import { ZONE_ROLE_OPTIONS } from '../../users/role-options';
import type { CreateUserFormInput, CreateUserFormOutput } from '../user-form';

export type ZoneRolePairsProps = {
  control: Control<CreateUserFormInput, unknown, CreateUserFormOutput>;
  register: UseFormRegister<CreateUserFormInput>;
  errors: FieldErrors<CreateUserFormInput>;
  zones: readonly Zone[];
};

/** Rows of zone and role: the zones a user belongs to, one role in each. */
export function ZoneRolePairs({ control, register, errors, zones }: ZoneRolePairsProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'zones' });
  const zoneOptions = [
    { value: '', label: CONSOLE_TEXTS.userEditor.chooseZone },
    ...zones.map((z) => ({ value: String(z.id), label: z.name })),
  ];
  const roleOptions = [{ value: '', label: CONSOLE_TEXTS.users.chooseRole }, ...ZONE_ROLE_OPTIONS];

  return (
    <Stack gap="xs">
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {CONSOLE_TEXTS.userEditor.noZones}
        </Text>
      )}
      {fields.map((field, index) => {
        const rowErrors = errors.zones?.[index];
        const rowLabel = CONSOLE_TEXTS.userEditor.row(index + 1);
        return (
          <Group key={field.id} align="flex-start" gap="sm" role="group" aria-label={rowLabel}>
            <NativeSelect
              label={CONSOLE_TEXTS.userEditor.zone}
              aria-label={`${CONSOLE_TEXTS.userEditor.zone} (${rowLabel})`}
              data={zoneOptions}
              w={280}
              {...register(`zones.${index}.zone_id`)}
              error={rowErrors?.zone_id?.message}
            />
            <NativeSelect
              label={CONSOLE_TEXTS.users.role}
              aria-label={`${CONSOLE_TEXTS.users.role} (${rowLabel})`}
              data={roleOptions}
              w={240}
              {...register(`zones.${index}.role_id`)}
              error={rowErrors?.role_id?.message}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              mt={28}
              onClick={() => remove(index)}
              aria-label={CONSOLE_TEXTS.userEditor.removeRow(index + 1)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Group>
        );
      })}
      {errors.zones?.root?.message && (
        <Text size="sm" c="var(--mantine-color-error)" role="alert">
          {errors.zones.root.message}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => append({ zone_id: '', role_id: '' })}
        >
          {CONSOLE_TEXTS.userEditor.addZone}
        </Button>
      </Group>
    </Stack>
  );
}
