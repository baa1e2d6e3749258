import { Button, Group, Modal, Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../texts';

/** "Login required" before switching to a zone that needs a fresh login (spec A section 4). */
export function ReauthenticateDialog({
  opened,
  onCancel,
  onContinue,
}: {
  opened: boolean;
  onCancel: () => void;
  onContinue: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={CONSOLE_TEXTS.zones.loginRequiredTitle} size="sm">
      <Text size="sm" mb="lg">
        {CONSOLE_TEXTS.zones.loginRequiredBody}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {CONSOLE_TEXTS.zones.cancel}
        </Button>
        <Button onClick={onContinue}>{CONSOLE_TEXTS.zones.continueToLogin}</Button>
      </Group>
    </Modal>
  );
}
