import { zodResolver } from '@hookform/resolvers/zod';
import type { ProfileOrg } from '@patchwell/core/auth/profile.schema';
import type { CreateApiKeyBody, CreatedApiKey } from '@patchwell/core/users/api-keys.schema';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { DialogActions } from '../../../ui/DialogActions';
import { notify } from '../../../ui/notify';
import { CopyValueButton } from '../../../ui/CopyValueButton';
import { createApiKey } from '../keys.api';
import { ALL_ZONES, ZCreateKeyForm, type CreateKeyFormInput } from '../key-form';

export type CreateKeyDialogProps = {
  opened: boolean;
  /** The current zone (`o`), preselected. */
  zoneId: number;
  /** The zones the user may choose. */
  zones: readonly ProfileOrg[];
  /** Global administrators may make a key for all zones of the account. */
  canChooseAllZones: boolean;
  onClose: () => void;
  onCreated: () => void;
};

/**
 * Creates an API key, then shows it once with a copy button and a warning that it will
 * not be shown again. Closing the dialog forgets the key.
 */
export function CreateKeyDialog({
  opened,
  zoneId,
  zones,
  canChooseAllZones,
  onClose,
  onCreated,
}: CreateKeyDialogProps) {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateKeyFormInput, unknown, CreateApiKeyBody>({
    resolver: zodResolver(ZCreateKeyForm),
    defaultValues: { name: '', zone: String(zoneId), expires_in_days: '' },
  });

  const close = () => {
    setCreated(null);
    reset({ name: '', zone: String(zoneId), expires_in_days: '' });
    onClose();
  };

  const onValid = async (body: CreateApiKeyBody) => {
    try {
      const key = await createApiKey(zoneId, body);
      setCreated(key);
      onCreated();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.name) setError('name', { type: 'server', message: fieldErrors.name });
      else if (fieldErrors.zone_id) setError('zone', { type: 'server', message: fieldErrors.zone_id });
      else notify.error(errorText(error));
    }
  };

  const zoneOptions = [
    ...(canChooseAllZones ? [{ value: ALL_ZONES, label: CONSOLE_TEXTS.keys.allZones }] : []),
    ...zones.map((z) => ({ value: String(z.id), label: z.name })),
  ];

  return (
    <Modal opened={opened} onClose={close} title={CONSOLE_TEXTS.keys.createTitle} size="md">
      {created ? (
        <Stack gap="md">
          <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden="true" />} role="alert">
            {CONSOLE_TEXTS.keys.shownOnce}
          </Alert>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label={CONSOLE_TEXTS.keys.yourKey(created.name)}
              value={created.key}
              readOnly
              ff="monospace"
              style={{ flex: 1 }}
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyValueButton value={created.key} label={CONSOLE_TEXTS.keys.copy} />
          </Group>
          <Text size="sm" c="dimmed">
            {CONSOLE_TEXTS.keys.usage}
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>{CONSOLE_TEXTS.keys.done}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit(onValid)} noValidate>
          <Stack gap="md">
            <TextInput
              label={CONSOLE_TEXTS.keys.name}
              required
              data-autofocus
              {...register('name')}
              error={errors.name?.message}
            />
            <NativeSelect
              label={CONSOLE_TEXTS.keys.zone}
              description={CONSOLE_TEXTS.keys.zoneDescription}
              data={zoneOptions}
              {...register('zone')}
              error={errors.zone?.message}
            />
            <TextInput
              label={CONSOLE_TEXTS.keys.expiresIn}
              description={CONSOLE_TEXTS.keys.expiresInDescription}
              inputMode="numeric"
              {...register('expires_in_days')}
              error={errors.expires_in_days?.message}
            />
            <DialogActions submitLabel={CONSOLE_TEXTS.keys.create} isSubmitting={isSubmitting} onCancel={close} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
