import { zodResolver } from '@hookform/resolvers/zod';
import { ZEmail } from '@patchwell/core/auth/signup.schema';
import { TEXTS } from '@patchwell/core/texts';
import type { InviteUserResult } from '@patchwell/core/users/users.schema';
import { Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { DialogActions } from '../../../ui/DialogActions';
import { notify } from '../../../ui/notify';
import { useZoneRoleOptions } from '../use-role-options';
import { inviteUser } from '../users.api';
import { InvitationOutcome, isMailHeld } from './InvitationOutcome';

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

/**
 * Invites someone into the current zone with a role; the server e-mails the link. When the
 * e-mail waits in the outbox (no relay), the dialog stays open to say so and offer the link.
 */
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

  const [held, setHeld] = useState<{ email: string; result: InviteUserResult } | null>(null);
  const roles = useZoneRoleOptions();

  const close = () => {
    reset();
    setHeld(null);
    onClose();
  };

  const onValid = async (values: InviteOutput) => {
    try {
      const result = await inviteUser(zoneId, values);
      onInvited();
      if (isMailHeld(result)) return setHeld({ email: values.email, result });
      notify.success(CONSOLE_TEXTS.users.invited(values.email));
      reset();
      onClose();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.email) setError('email', { type: 'server', message: fieldErrors.email });
      if (fieldErrors.role_id) setError('role_id', { type: 'server', message: fieldErrors.role_id });
      if (!fieldErrors.email && !fieldErrors.role_id) notify.error(errorText(error));
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={CONSOLE_TEXTS.users.inviteTitle} size={held ? 'lg' : 'sm'}>
      {held ? (
        <Stack gap="md">
          <InvitationOutcome email={held.email} result={held.result} />
          <Group justify="flex-end">
            <Button onClick={close}>{CONSOLE_TEXTS.users.done}</Button>
          </Group>
        </Stack>
      ) : (
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
              description={roles.planNote}
              data={[{ value: '', label: CONSOLE_TEXTS.users.chooseRole }, ...roles.options]}
              {...register('role_id')}
              error={errors.role_id?.message}
            />
            <DialogActions submitLabel={CONSOLE_TEXTS.users.sendInvite} isSubmitting={isSubmitting} onCancel={close} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
