import { Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../texts';
import { openConfirmModal } from './modals-host';

export type ConfirmOptions = {
  title: string;
  message: string;
  confirmLabel: string;
  /** The dismiss button's label when "Cancel" would be ambiguous (cancelling a task). */
  cancelLabel?: string;
  /** Red confirm button for destructive actions. */
  isDanger?: boolean;
  onConfirm: () => void;
};

/** A confirmation modal before an action that changes someone's access. */
export function confirmAction({
  title,
  message,
  confirmLabel,
  cancelLabel = CONSOLE_TEXTS.common.cancel,
  isDanger = false,
  onConfirm,
}: ConfirmOptions): void {
  void openConfirmModal({
    title,
    size: 'sm',
    children: <Text size="sm">{message}</Text>,
    labels: { confirm: confirmLabel, cancel: cancelLabel },
    confirmProps: isDanger ? { color: 'red' } : undefined,
    onConfirm,
  });
}
