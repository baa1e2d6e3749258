import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { LEGACY_SSO_CUTOFF } from '../legacy-sso';
import { SSO_TEXTS } from '../sso.texts';

const T = SSO_TEXTS.legacy;

/** The legacy single-sign-on deprecation modal, once per browser session (spec A section 4). */
export function LegacySsoDialog({
  opened,
  onClose,
  links,
}: {
  opened: boolean;
  onClose: () => void;
  links: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={T.modalTitle} size="md">
      <Text size="sm" mb="md">
        {T.modalBody(LEGACY_SSO_CUTOFF)}
      </Text>
      <Group justify="space-between">
        {links}
        <Button onClick={onClose}>{T.dismiss}</Button>
      </Group>
    </Modal>
  );
}
