import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import {
  DEVICE_FILTER_FIELDS,
  DEVICE_FILTER_OP_LABELS,
  DEVICE_FILTER_OPS,
  type DeviceFiltersPreviewBody,
} from '@patchwell/core/policies/device-filters.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  ActionIcon,
  Button,
  Group,
  List,
  MultiSelect,
  NativeSelect,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useFieldArray, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../../../texts';
import { usePolicyPreview } from '../policies.api';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

export type TargetFieldsProps = {
  zoneId: number;
  groups: readonly ServerGroup[];
  control: PolicyControl;
  register: UseFormRegister<PolicyFormValues>;
  errors: FieldErrors<PolicyFormValues>;
};

const choose = { value: '', label: T.choosePlaceholder };
const PREVIEW_SHOWN = 20;

/** The devices the draft's groups and complete filters hit (`POST /api/policies/preview`). */
function TargetPreview({ zoneId, control }: Pick<TargetFieldsProps, 'zoneId' | 'control'>) {
  const [body, setBody] = useState<DeviceFiltersPreviewBody | null>(null);
  const [groups, isEnabled, filters] = useWatch({
    control,
    name: ['server_groups', 'configuration.device_filters_enabled', 'configuration.device_filters'],
  });
  const preview = usePolicyPreview(zoneId, body);
  const onPreview = () =>
    setBody({
      server_groups: groups.map(Number),
      // Incomplete rows would fail the request; the form reports them on save.
      device_filters: isEnabled
        ? filters.flatMap((f) =>
            f.field && f.op && f.value.length ? [{ field: f.field, op: f.op, value: f.value }] : [],
          )
        : [],
    });
  const rows = preview.data?.data ?? [];
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" size="xs" onClick={onPreview} loading={preview.isFetching}>
          {T.preview}
        </Button>
      </Group>
      {preview.isError && <Text size="sm">{TEXTS.generic.unableToLoad}</Text>}
      {preview.data && (
        <Stack gap={4} role="region" aria-label={T.previewTitle}>
          <Text size="sm" fw={500}>
            {preview.data.size === 0 ? T.previewNone : T.previewCount(preview.data.size)}
          </Text>
          <List size="sm">
            {rows.slice(0, PREVIEW_SHOWN).map((d) => (
              <List.Item key={d.id}>
                {d.display_name} · {CONSOLE_TEXTS.os[d.os_family] ?? d.os_family} {d.os_version}
              </List.Item>
            ))}
          </List>
          {rows.length > PREVIEW_SHOWN && (
            <Text size="sm" c="dimmed">
              {T.previewMore(rows.length - PREVIEW_SHOWN)}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** Target groups, device filters (field, operator, values) and a preview of the devices hit. */
export function TargetFields({ zoneId, groups, control, register, errors }: TargetFieldsProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'configuration.device_filters' });
  const isEnabled = useWatch({ control, name: 'configuration.device_filters_enabled' });
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.targetsSection}
      </Title>
      <Controller
        control={control}
        name="server_groups"
        render={({ field }) => (
          <MultiSelect
            label={T.groups}
            description={T.groupsDescription}
            data={groups.map((g) => ({ value: String(g.id), label: g.name }))}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.server_groups?.message}
            searchable
            clearable
          />
        )}
      />
      <SwitchField control={control} name="configuration.device_filters_enabled" label={T.deviceFiltersEnabled} />
      {isEnabled && (
        <Stack gap="xs" role="group" aria-label={T.deviceFilters}>
          {fields.map((f, i) => {
            const rowErrors = errors.configuration?.device_filters?.[i];
            return (
              <Group key={f.id} align="flex-start" gap="xs" role="group" aria-label={`${T.deviceFilters} ${i + 1}`}>
                <NativeSelect
                  label={T.filterField}
                  data={[choose, ...DEVICE_FILTER_FIELDS.map((v) => ({ value: v, label: T.filterFields[v] ?? v }))]}
                  {...register(`configuration.device_filters.${i}.field`)}
                  error={rowErrors?.field?.message}
                />
                <NativeSelect
                  label={T.filterOp}
                  data={[choose, ...DEVICE_FILTER_OPS.map((v) => ({ value: v, label: DEVICE_FILTER_OP_LABELS[v] }))]}
                  {...register(`configuration.device_filters.${i}.op`)}
                  error={rowErrors?.op?.message}
                />
                <Controller
                  control={control}
                  name={`configuration.device_filters.${i}.value`}
                  render={({ field }) => (
                    <TagsInput
                      label={T.filterValues}
                      description={T.filterValuesDescription}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      error={rowErrors?.value?.message}
                      style={{ flex: 1, minWidth: 220 }}
                    />
                  )}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={T.removeFilter(i + 1)}
                  onClick={() => remove(i)}
                  mt={28}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </ActionIcon>
              </Group>
            );
          })}
          <Group>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden="true" />}
              onClick={() => append({ field: '', op: '', value: [] })}
            >
              {T.addFilter}
            </Button>
          </Group>
        </Stack>
      )}
      <TargetPreview zoneId={zoneId} control={control} />
    </Stack>
  );
}
