import {
  ADVANCED_FILTER_ALLOWED,
  ADVANCED_FILTER_ATTRIBUTES,
  ORDERED_SEVERITIES,
  PATCH_MODES,
  PATCH_OSES,
  PATCH_SOURCES,
  PATCH_TYPES,
  SEVERITY_FILTER_VALUES,
  type AdvancedFilterAttribute,
} from '@patchwell/core/policies/patch-filters.schema';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Stack,
  TagsInput,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { CONSOLE_TEXTS } from '../../../texts';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

export type PatchSelectionFieldsProps = {
  control: PolicyControl;
  register: UseFormRegister<PolicyFormValues>;
  errors: FieldErrors<PolicyFormValues>;
};

const choose = { value: '', label: T.choosePlaceholder };

/** Values offered for an attribute (free text for display name and age). */
function valueOptions(left: AdvancedFilterAttribute | '', condition: string): readonly string[] | null {
  switch (left) {
    case 'severity':
      return condition === 'is' || condition === 'is-not' ? SEVERITY_FILTER_VALUES : ORDERED_SEVERITIES;
    case 'patch-source':
      return PATCH_SOURCES;
    case 'patch-os':
      return PATCH_OSES;
    case 'type':
      return PATCH_TYPES;
    default:
      return null;
  }
}

/** The advanced rules: attribute, condition and value, each required. */
function AdvancedRules({ control, register, errors }: PatchSelectionFieldsProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'configuration.advanced_filter' });
  const rows = useWatch({ control, name: 'configuration.advanced_filter' });
  const listError = errors.configuration?.advanced_filter;
  return (
    <Stack gap="xs">
      <Title order={3} fz="sm">
        {T.rules}
      </Title>
      {fields.map((f, i) => {
        const row = rows[i] ?? { left: '', condition: '', right: '' };
        const rowErrors = errors.configuration?.advanced_filter?.[i];
        const options = valueOptions(row.left, row.condition);
        return (
          <Stack key={f.id} gap={4}>
            <Group align="flex-end" gap="xs" role="group" aria-label={`${T.rules} ${i + 1}`}>
              <NativeSelect
                label={T.attribute}
                data={[
                  choose,
                  ...ADVANCED_FILTER_ATTRIBUTES.map((a) => ({ value: a, label: T.attributeLabels[a] ?? a })),
                ]}
                {...register(`configuration.advanced_filter.${i}.left`)}
                error={!!rowErrors?.left}
              />
              <NativeSelect
                label={T.condition}
                data={[
                  choose,
                  ...(row.left ? ADVANCED_FILTER_ALLOWED[row.left] : []).map((c) => ({
                    value: c,
                    label: T.conditionLabels[c] ?? c,
                  })),
                ]}
                {...register(`configuration.advanced_filter.${i}.condition`)}
                error={!!rowErrors?.condition}
              />
              {options ? (
                <NativeSelect
                  label={T.value}
                  data={[choose, ...options.map((o) => ({ value: o, label: T.severityLabels[o] ?? o }))]}
                  {...register(`configuration.advanced_filter.${i}.right`)}
                  error={!!rowErrors?.right}
                />
              ) : (
                <TextInput
                  label={T.value}
                  inputMode={row.left === 'patch-days-old' ? 'numeric' : undefined}
                  {...register(`configuration.advanced_filter.${i}.right`)}
                  error={!!rowErrors?.right}
                />
              )}
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={T.removeRule(i + 1)}
                onClick={() => remove(i)}
                mb={4}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Group>
            {rowErrors && (
              <Alert color="red" p="xs" role="alert">
                {!row.left || !row.condition || !row.right.trim()
                  ? T.packageTargeting
                  : (rowErrors.right?.message ?? rowErrors.condition?.message ?? T.packageTargeting)}
              </Alert>
            )}
          </Stack>
        );
      })}
      {listError?.message && (
        <Alert color="red" p="xs" role="alert">
          {listError.message}
        </Alert>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => append({ left: '', condition: '', right: '' })}
        >
          {T.addRule}
        </Button>
      </Group>
    </Stack>
  );
}

/** Patch mode and what it selects: name patterns, severities or advanced rules. */
export function PatchSelectionFields(props: PatchSelectionFieldsProps) {
  const { control, register, errors } = props;
  const mode = useWatch({ control, name: 'patch_mode' });
  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.patchSelection}
      </Title>
      <NativeSelect
        label={T.patchMode}
        maw={320}
        data={PATCH_MODES.map((m) => ({ value: m, label: T.patchModes[m] ?? m }))}
        {...register('patch_mode')}
      />
      {(mode === 'patch_only' || mode === 'patch_all_except') && (
        <Controller
          control={control}
          name="configuration.filters"
          render={({ field }) => (
            <TagsInput
              label={T.patterns}
              description={T.patternsDescription}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.configuration?.filters?.message}
              clearable
            />
          )}
        />
      )}
      {mode === 'patch_by_severity' && (
        <Controller
          control={control}
          name="configuration.severity_filter"
          render={({ field }) => (
            <Checkbox.Group
              label={T.severities}
              value={field.value}
              onChange={(v) => field.onChange(v)}
              error={errors.configuration?.severity_filter?.message}
            >
              <Group gap="sm" mt={4}>
                {SEVERITY_FILTER_VALUES.map((s) => (
                  <Checkbox key={s} value={s} label={T.severityLabels[s] ?? CONSOLE_TEXTS.severity[s] ?? s} />
                ))}
              </Group>
            </Checkbox.Group>
          )}
        />
      )}
      {mode === 'patch_advanced' && <AdvancedRules {...props} />}
      <SwitchField
        control={control}
        name="configuration.auto_patch"
        label={T.autoPatch}
        description={T.autoPatchDescription}
      />
      <SwitchField control={control} name="configuration.include_optional" label={T.includeOptional} />
    </Stack>
  );
}
