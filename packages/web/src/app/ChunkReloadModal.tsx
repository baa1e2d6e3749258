import { MODAL_SIZES } from '@patchwell/core/constants';
import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { Box, Button, FocusTrap, Group, Overlay, Paper, Portal, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { ENTRY_TEXTS } from '../texts.entry';

/**
 * Persistent: no close button, no Escape, no outside click. The only way on is reloading.
 * It looks like a Mantine Modal of size sm but is built from lighter parts: it is in every
 * page's first download (it must show when later downloads fail), and Modal brings the scroll
 * area and floating-ui with it.
 */
export function ChunkReloadModal({ opened = true }: { opened?: boolean }) {
  const titleId = useId();
  if (!opened) return null;
  return (
    <Portal>
      <Overlay fixed zIndex={200} />
      <Box
        pos="fixed"
        inset={0}
        p="md"
        style={{ zIndex: 201, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <FocusTrap active>
          <Paper role="dialog" aria-modal="true" aria-labelledby={titleId} shadow="xl" w="100%" maw={MODAL_SIZES.sm}>
            {/* Modal's header and body: title md, regular, line-height 1, in a 3.75rem row. */}
            <Box mih="3.75rem" px="md" style={{ display: 'flex', alignItems: 'center' }}>
              <Title order={2} id={titleId} fz="md" fw={400} lh={1}>
                {ENTRY_TEXTS.chunk.title}
              </Title>
            </Box>
            <Box px="md" pb="md">
              <Text size="sm" mb="lg">
                {ENTRY_TEXTS.chunk.body}
              </Text>
              <Group justify="flex-end">
                <Button onClick={() => window.location.reload()} data-autofocus>
                  {BASE_TEXTS.generic.reloadNow}
                </Button>
              </Group>
            </Box>
          </Paper>
        </FocusTrap>
      </Box>
    </Portal>
  );
}
