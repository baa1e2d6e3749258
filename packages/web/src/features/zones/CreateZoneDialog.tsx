import { zodResolver } from '@hookform/resolvers/zod';
import { CREATE_ZONE_DIALOG_WIDTH } from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import { ZCreateZoneBody, type CreateZoneBody, type Zone } from '@patchwell/core/zones/zones.schema';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { serverFieldErrors, firstErrorText } from '../../api/field-errors';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { createZone } from './zones.api';

export type CreateZoneDialogProps = {
  opened: boolean;
  /** The current zone (`o`): the new zone gets its parent. */
  zoneId: number;
  onClose: () => void;
  /** Called with the new zone once the server created it. */
  onCreated: (zone: Zone) => void | Promise<void>;
};

/**
 * 'Create New Zone' (spec A sections 2, 5, 8): a 43rem dialog asking for the zone name.
 * The create button stays disabled while the name is invalid; a taken name shows 'A zone
 * with this name already exists' on the field.
 */
export function CreateZoneDialog({ opened, zoneId, onClose, onCreated }: CreateZoneDialogProps) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<CreateZoneBody>({
    resolver: zodResolver(ZCreateZoneBody),
    mode: 'all',
    defaultValues: { name: '' },
  });

  const close = () => {
    reset();
    onClose();
  };

  const onValid = async (values: CreateZoneBody) => {
    try {
      const zone = await createZone(zoneId, values);
      notify.success(TEXTS.zones.created);
      reset();
      await onCreated(zone);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.name) setError('name', { type: 'server', message: fieldErrors.name }, { shouldFocus: true });
      notify.error(firstErrorText(error));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={CONSOLE_TEXTS.zones.createNewTitle} size={CREATE_ZONE_DIALOG_WIDTH}>
      <form onSubmit={handleSubmit(onValid)} noValidate>
        <Stack gap="md">
          <TextInput
            label={CONSOLE_TEXTS.createZone.name}
            required
            data-autofocus
            {...register('name')}
            error={errors.name?.message}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {CONSOLE_TEXTS.common.cancel}
            </Button>
            <Button type="submit" disabled={!isValid} loading={isSubmitting}>
              {CONSOLE_TEXTS.createZone.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
