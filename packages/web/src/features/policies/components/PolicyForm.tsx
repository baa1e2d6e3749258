import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import type { WorkletCatalogEntry } from '@patchwell/core/worklets/worklet-catalog.schema';
import { POLICY_NAME_MAX_LENGTH, type CreatePolicyBody } from '@patchwell/core/policies/policies.schema';
import { Alert, Button, Divider, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { serverFieldErrors } from '../../../api/field-errors';
import { errorText } from '../../../api/error-text';
import { useUnsavedChangesPrompt } from '../../../ui/useUnsavedChangesPrompt';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import { FORM_SUMMARY, policyResolver, type PolicyFormValues } from '../policy-form';
import { NotificationFields } from './NotificationFields';
import { PatchSelectionFields } from './PatchSelectionFields';
import { ScheduleEditor } from './ScheduleEditor';
import { TargetFields } from './TargetFields';
import { RequiredSoftwareFields, WorkletFields } from './TypeFields';

export type PolicyFormProps = {
  zoneId: number;
  groups: readonly ServerGroup[];
  defaultValues: PolicyFormValues;
  /** The stored configuration, whose fields the form does not edit are kept. */
  baseConfiguration?: Record<string, unknown>;
  canEdit: boolean;
  submitLabel: string;
  /** Saves the body; a rejection with field errors shows them on the fields. */
  onSave: (body: CreatePolicyBody) => Promise<void>;
  ariaLabel: string;
  /** Asked with the valid body before saving; false goes back to the form unsaved. */
  review?: (body: CreatePolicyBody) => Promise<boolean>;
  /** The catalogue worklet a new worklet policy starts from. */
  worklet?: WorkletCatalogEntry;
};

/**
 * The whole policy form for every type: general fields, what a patch policy selects or the
 * worklet's or package's fields, targets, schedule, notifications and catch-up. Errors show
 * on each field with the spec's summary above the save button.
 */
export function PolicyForm({
  zoneId,
  groups,
  defaultValues,
  baseConfiguration,
  canEdit,
  submitLabel,
  onSave,
  ariaLabel,
  review,
  worklet,
}: PolicyFormProps) {
  const [resolver] = useState(() => policyResolver(baseConfiguration));
  const [summary, setSummary] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const form = useForm<PolicyFormValues, unknown, CreatePolicyBody>({ resolver, defaultValues });
  const {
    control,
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = form;
  useUnsavedChangesPrompt(isDirty && !isSaving);
  const type = defaultValues.policy_type_name;

  const onValid = async (body: CreatePolicyBody) => {
    setSummary(null);
    if (review && !(await review(body))) return;
    try {
      // Saving may navigate away (a new policy opens its page): let it pass the prompt.
      setSaving(true);
      await onSave(body);
      reset(getValues());
      setSaving(false);
    } catch (error) {
      setSaving(false);
      const fields = Object.entries(serverFieldErrors(error));
      if (fields.length === 0) {
        setSummary(errorText(error));
        return;
      }
      for (const [path, message] of fields) {
        setError(path as keyof PolicyFormValues, { type: 'server', message });
      }
      setSummary(FORM_SUMMARY);
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid, () => setSummary(FORM_SUMMARY))} noValidate aria-label={ariaLabel}>
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg" maw={880}>
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {T.general}
            </Title>
            <TextInput
              label={T.name}
              required
              maxLength={POLICY_NAME_MAX_LENGTH}
              {...register('name')}
              error={errors.name?.message}
            />
            <Textarea label={T.notes} rows={3} resize="vertical" {...register('notes')} error={errors.notes?.message} />
            <SwitchField control={control} name="is_active" label={T.activeSwitch} description={T.activeDescription} />
          </Stack>
          <Divider />
          {type === 'patch' && <PatchSelectionFields control={control} register={register} errors={errors} />}
          {type === 'custom' && (
            <WorkletFields
              control={control}
              register={register}
              errors={errors}
              setValue={setValue}
              getValues={getValues}
              worklet={worklet}
            />
          )}
          {type === 'required_software' && (
            <RequiredSoftwareFields zoneId={zoneId} control={control} register={register} errors={errors} />
          )}
          <Divider />
          <TargetFields zoneId={zoneId} groups={groups} control={control} register={register} errors={errors} />
          <Divider />
          <ScheduleEditor control={control} register={register} errors={errors} />
          <SwitchField
            control={control}
            name="configuration.missed_patch_window"
            label={T.catchUp}
            description={T.catchUpDescription}
          />
          {type !== 'required_software' && (
            <>
              <Divider />
              <NotificationFields
                control={control}
                register={register}
                errors={errors}
                withInstallNotice={type === 'patch'}
              />
            </>
          )}
          {summary && (
            <Alert color="red" role="alert">
              {summary}
            </Alert>
          )}
          {canEdit && (
            <Group>
              <Button type="submit" loading={isSubmitting}>
                {submitLabel}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
