import { Button, Group } from '@mantine/core';
import { CONSOLE_TEXTS } from '../texts';

type DialogActionsProps = {
  submitLabel: string;
  isSubmitting: boolean;
  onCancel: () => void;
};

/** A form dialog's footer: Cancel, then the submit button. */
export function DialogActions({ submitLabel, isSubmitting, onCancel }: DialogActionsProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {CONSOLE_TEXTS.common.cancel}
      </Button>
      <Button type="submit" loading={isSubmitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
