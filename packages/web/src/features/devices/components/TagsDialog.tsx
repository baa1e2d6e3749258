import { Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { TEXTS } from '@patchwell/core/texts';
import { CONSOLE_TEXTS } from '../../../texts';
import { DialogActions } from '../../../ui/DialogActions';

export type TagsDialogProps = {
  opened: boolean;
  title: string;
  onClose: () => void;
  onSubmit: (tags: string[]) => Promise<void>;
};

/** Comma-separated tags for the apply-tags and remove-tags bulk actions. */
export function TagsDialog({ opened, title, onClose, onSubmit }: TagsDialogProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const close = () => {
    setValue('');
    setError(null);
    onClose();
  };
  const submit = async () => {
    const tags = [
      ...new Set(
        value
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    if (tags.length === 0) {
      setError(TEXTS.validation.atLeastOne);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(tags);
      close();
    } catch {
      // The failure has been shown; the dialog stays open to try again.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} size="sm">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label={CONSOLE_TEXTS.devices.tagsInput}
            description={CONSOLE_TEXTS.devices.tagsDescription}
            data-autofocus
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={error}
          />
          <DialogActions submitLabel={CONSOLE_TEXTS.devices.apply} isSubmitting={isBusy} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
