import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { CONSOLE_TEXTS } from '../texts';

export type ConfirmOptions = {
  title: string;
  message: string;
  confirmLabel: string;
  /** Red confirm button for destructive actions. */
  isDanger?: boolean;
  onConfirm: () => void;
};

/** A confirmation modal before an action that changes someone's access. */
export function confirmAction({ title, message, confirmLabel, isDanger = false, onConfirm }: ConfirmOptions): void {
  modals.openConfirmModal({
    title,
    size: 'sm',
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: confirmLabel, cancel: CONSOLE_TEXTS.common.cancel },
    confirmProps: isDanger ? { color: 'red' } : undefined,
    onConfirm,
  });
}
