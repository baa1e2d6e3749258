import { TEXTS } from '@patchwell/core/texts';
import { Button, Group, Modal, Text } from '@mantine/core';
import { CONSOLE_TEXTS } from '../texts';

/** Persistent: no close button, no Escape, no outside click. The only way on is reloading. */
export function ChunkReloadModal({ opened = true }: { opened?: boolean }) {
  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title={CONSOLE_TEXTS.chunk.title}
      size="sm"
      centered
    >
      <Text size="sm" mb="lg">
        {CONSOLE_TEXTS.chunk.body}
      </Text>
      <Group justify="flex-end">
        <Button onClick={() => window.location.reload()} data-autofocus>
          {TEXTS.generic.reloadNow}
        </Button>
      </Group>
    </Modal>
  );
}
