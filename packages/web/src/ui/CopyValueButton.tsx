import { ActionIcon, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../texts';
import { Hint } from './Hint';

/** A copy-to-clipboard button for a secret, labelled for screen readers. */
export function CopyValueButton({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Hint label={copied ? CONSOLE_TEXTS.common.copied : label} withArrow>
          <ActionIcon
            variant="subtle"
            size="lg"
            color={copied ? 'teal' : 'gray.8'}
            onClick={copy}
            aria-label={copied ? CONSOLE_TEXTS.common.copied : label}
          >
            {copied ? <IconCheck size={18} aria-hidden="true" /> : <IconCopy size={18} aria-hidden="true" />}
          </ActionIcon>
        </Hint>
      )}
    </CopyButton>
  );
}
