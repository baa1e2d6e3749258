import { Modal, NativeSelect, Stack } from '@mantine/core';
import { useState } from 'react';
import { TEXTS } from '@patchwell/core/texts';
import { CONSOLE_TEXTS } from '../../../texts';
import { DialogActions } from '../../../ui/DialogActions';
import type { ServerGroup } from '@patchwell/core/devices/groups.schema';

export type AssignGroupDialogProps = {
  opened: boolean;
  groups: readonly ServerGroup[];
  onClose: () => void;
  onSubmit: (groupId: number) => Promise<void>;
};

/** The assign-to-group bulk action. */
export function AssignGroupDialog({ opened, groups, onClose, onSubmit }: AssignGroupDialogProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (!value) {
      setError(TEXTS.validation.required);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(Number(value));
      close();
    } catch {
      // The failure has been shown; the dialog stays open to try again.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={CONSOLE_TEXTS.devices.assignGroup} size="sm">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <NativeSelect
            label={CONSOLE_TEXTS.devices.group}
            data-autofocus
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            data={[
              { value: '', label: CONSOLE_TEXTS.devices.chooseGroup },
              ...groups.map((g) => ({ value: String(g.id), label: g.name })),
            ]}
            error={error}
          />
          <DialogActions submitLabel={CONSOLE_TEXTS.devices.assign} isSubmitting={isBusy} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
