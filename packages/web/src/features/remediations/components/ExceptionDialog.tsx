import { zodResolver } from '@hookform/resolvers/zod';
import {
  CVE_EXCEPTION_KIND_LABELS,
  CVE_EXCEPTION_KINDS,
  type CveExceptionBody,
} from '@patchwell/core/remediation/cves.schema';
import { Modal, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { DialogActions } from '../../../ui/DialogActions';
import { notify } from '../../../ui/notify';
import { exceptionFormSchema, type ExceptionInput } from '../remediation-forms';
import { createCveException, cveKeys } from '../remediations.api';
import { TASK_TEXTS } from '../../tasks/tasks.texts';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

export type ExceptionDialogProps = {
  opened: boolean;
  zoneId: number;
  cve: string;
  /** The CVE's devices to choose from; the zone as a whole is always offered. */
  devices: readonly { id: number; hostname: string }[];
  /** Preselected device ('' for the zone). */
  deviceId?: number;
  onClose: () => void;
  /** For tests: the day the expiry must come after. */
  now?: Date;
};

function ExceptionForm({ zoneId, cve, devices, deviceId, onClose, now }: Omit<ExceptionDialogProps, 'opened'>) {
  const queryClient = useQueryClient();
  const schema = useMemo(() => exceptionFormSchema(now), [now]);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ExceptionInput, unknown, CveExceptionBody>({
    resolver: zodResolver(schema),
    defaultValues: { kind: 'false_positive', device: deviceId ? String(deviceId) : '', reason: '', expires: '' },
  });
  const onValid = async (body: CveExceptionBody) => {
    try {
      await createCveException(zoneId, cve, body);
      notify.success(T.exceptionSaved);
      await queryClient.invalidateQueries({ queryKey: cveKeys.all });
      onClose();
    } catch (error) {
      void notify.apiError(error);
    }
  };
  return (
    <form onSubmit={handleSubmit(onValid)} noValidate>
      <Stack gap="md">
        <Controller
          control={control}
          name="kind"
          render={({ field }) => (
            <Radio.Group label={T.kind} value={field.value} onChange={field.onChange} required>
              <Stack gap="xs" mt={4}>
                {CVE_EXCEPTION_KINDS.map((k) => (
                  <Radio key={k} value={k} label={CVE_EXCEPTION_KIND_LABELS[k]} description={T.kindHelp[k]} />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        <NativeSelect
          label={T.scope}
          data={[
            { value: '', label: T.wholeZone },
            ...devices.map((d) => ({ value: String(d.id), label: d.hostname })),
          ]}
          {...register('device')}
        />
        <Textarea
          label={T.reason}
          required
          rows={3}
          resize="vertical"
          error={errors.reason?.message}
          {...register('reason')}
        />
        <TextInput
          label={T.expires}
          description={T.expiresHint}
          placeholder="YYYY-MM-DD"
          error={errors.expires?.message}
          {...register('expires')}
        />
        <DialogActions submitLabel={T.saveException} isSubmitting={isSubmitting} onCancel={onClose} />
      </Stack>
    </form>
  );
}

/** Mark a CVE as a false positive or an accepted risk, on one device or the zone, with a reason and an expiry. */
export function ExceptionDialog({ opened, ...props }: ExceptionDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={props.onClose}
      title={T.exceptionTitle(props.cve)}
      size="md"
      closeButtonProps={{ 'aria-label': TASK_TEXTS.closeDialog }}
    >
      {opened && <ExceptionForm {...props} />}
    </Modal>
  );
}
