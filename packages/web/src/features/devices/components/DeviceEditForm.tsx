import { Button, Group, NativeSelect, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import { CONSOLE_TEXTS } from '../../../texts';
import { notify } from '../../../ui/notify';
import { useUnsavedChangesPrompt } from '../../../ui/useUnsavedChangesPrompt';
import {
  deviceFormValues,
  deviceUpdateBody,
  validateDeviceForm,
  type DeviceFormErrors,
  type DeviceFormValues,
} from '../device-form';
import { deviceKeys, updateDevice } from '../devices.api';
import type { DeviceDetail } from '../devices.types';

const T = CONSOLE_TEXTS.device;

export type DeviceEditFormProps = {
  zoneId: number;
  device: DeviceDetail;
  groups: readonly ServerGroup[];
};

/**
 * Custom name, group, tags and notes of a device (`PUT /api/servers/{id}`, Endpoint.manage).
 * Save sends only what changed; Cancel puts the saved values back; leaving with changes asks first.
 */
export function DeviceEditForm({ zoneId, device, groups }: DeviceEditFormProps) {
  const queryClient = useQueryClient();
  const saved = deviceFormValues(device);
  const [values, setValues] = useState<DeviceFormValues>(saved);
  const [errors, setErrors] = useState<DeviceFormErrors>({});
  const [isSaving, setSaving] = useState(false);
  const isDirty = Object.keys(deviceUpdateBody(device, values)).length > 0;
  useUnsavedChangesPrompt(isDirty && !isSaving);

  // Without ServerGroup.read the list does not load; the device's own group still shows.
  const groupOptions = groups.some((g) => g.id === device.server_group_id)
    ? groups
    : [{ id: device.server_group_id, name: device.group_name }, ...groups];
  const set = (field: keyof DeviceFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSave = async () => {
    const found = validateDeviceForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      const updated = await updateDevice(zoneId, device.id, deviceUpdateBody(device, values));
      // The page re-keys this form on the saved values, which become the new baseline at once
      // (no unsaved-changes prompt while the lists refresh).
      queryClient.setQueryData(deviceKeys.detail(zoneId, device.id), updated);
      notify.success(T.saved);
      await queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    } catch (error) {
      void notify.apiError(error);
    } finally {
      setSaving(false);
    }
  };
  const onCancel = () => {
    setValues(saved);
    setErrors({});
  };

  return (
    <form
      noValidate
      aria-labelledby="device-edit-title"
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      <Stack gap="sm" maw={640}>
        <Title order={2} fz="h4" id="device-edit-title">
          {T.details}
        </Title>
        <TextInput
          label={T.customName}
          description={T.customNameHint}
          placeholder={device.hostname}
          value={values.customName}
          onChange={(e) => set('customName')(e.currentTarget.value)}
          error={errors.customName}
        />
        <NativeSelect
          label={T.group}
          value={values.groupId}
          onChange={(e) => set('groupId')(e.currentTarget.value)}
          data={groupOptions.map((g) => ({ value: String(g.id), label: g.name }))}
        />
        <TextInput
          label={T.tags}
          description={T.tagsHint}
          value={values.tags}
          onChange={(e) => set('tags')(e.currentTarget.value)}
          error={errors.tags}
        />
        <Textarea
          label={T.notes}
          rows={4}
          value={values.notes}
          onChange={(e) => set('notes')(e.currentTarget.value)}
          error={errors.notes}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={!isDirty || isSaving}>
            {CONSOLE_TEXTS.common.cancel}
          </Button>
          <Button type="submit" loading={isSaving} disabled={!isDirty}>
            {CONSOLE_TEXTS.common.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
