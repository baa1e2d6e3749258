import { zodResolver } from '@hookform/resolvers/zod';
import { ZEmail } from '@patchwell/core/auth/signup.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { DialogActions } from '../../../ui/DialogActions';
import { notify } from '../../../ui/notify';
import { ZONE_ROLE_OPTIONS } from '../role-options';
import { inviteUser } from '../users.api';

/** The invite form: e-mail and role ('Role is required'). */
export const ZInviteForm = z.object({
  email: ZEmail,
  role_id: z
    .string()
    .min(1, TEXTS.users.roleRequired)
    .transform((v) => Number(v)),
});
type InviteInput = z.input<typeof ZInviteForm>;
type InviteOutput = z.output<typeof ZInviteForm>;

/** Invites someone into the current zone with a role; the server e-mails the link. */
export function InviteUserDialog({
  opened,
  zoneId,
  onClose,
  onInvited,
}: {
  opened: boolean;
  zoneId: number;
  onClose: () => void;
  onInvited: () => void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<InviteInput, unknown, InviteOutput>({
    resolver: zodResolver(ZInviteForm),
    defaultValues: { email: '', role_id: '' },
  });

  const close = () => {
    reset();
    onClose();
  };

  const onValid = async (values: InviteOutput) => {
    try {
      await inviteUser(zoneId, values);
      notify.success(CONSOLE_TEXTS.users.invited(values.email));
      reset();
      onInvited();
      onClose();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.email) setError('email', { type: 'server', message: fieldErrors.email });
      if (fieldErrors.role_id) setError('role_id', { type: 'server', message: fieldErrors.role_id });
      if (!fieldErrors.email && !fieldErrors.role_id) notify.error(errorText(error));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={CONSOLE_TEXTS.users.inviteTitle} size="sm">
      <form onSubmit={handleSubmit(onValid)} noValidate>
        <Stack gap="md">
          <TextInput
            label={CONSOLE_TEXTS.users.email}
            type="email"
            required
            data-autofocus
            {...register('email')}
            error={errors.email?.message}
          />
          <NativeSelect
            label={CONSOLE_TEXTS.users.role}
            required
            data={[{ value: '', label: CONSOLE_TEXTS.users.chooseRole }, ...ZONE_ROLE_OPTIONS]}
            {...register('role_id')}
            error={errors.role_id?.message}
          />
          <DialogActions submitLabel={CONSOLE_TEXTS.users.sendInvite} isSubmitting={isSubmitting} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
