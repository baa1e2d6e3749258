import { Alert, Anchor, Text, type MantineColor } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { CONSOLE_TEXTS } from '../texts';

/** Messages longer than this (or with several lines) start collapsed with "Show more". */
export const COLLAPSE_AFTER_CHARS = 180;

export type StatusBannerProps = {
  message: string;
  color: MantineColor;
  icon?: ReactNode;
  /** Shows a dismiss button when given. */
  onDismiss?: () => void;
  /** Extra content after the message (links, buttons). */
  children?: ReactNode;
};

/** A full-width notice with optional dismiss and show more/less (spec A section 2). */
export function StatusBanner({ message, color, icon, onDismiss, children }: StatusBannerProps) {
  const isLong = message.length > COLLAPSE_AFTER_CHARS || message.includes('\n');
  const [isExpanded, setExpanded] = useState(false);
  return (
    <Alert
      color={color}
      icon={icon}
      radius={0}
      withCloseButton={!!onDismiss}
      onClose={onDismiss}
      closeButtonLabel={CONSOLE_TEXTS.banners.dismiss}
      role="status"
      styles={{ message: { color: 'var(--mantine-color-text)' } }}
    >
      <Text size="sm" lineClamp={isLong && !isExpanded ? 2 : undefined} style={{ whiteSpace: 'pre-line' }}>
        {message}
      </Text>
      {isLong && (
        <Anchor
          component="button"
          type="button"
          size="sm"
          aria-expanded={isExpanded}
          onClick={() => setExpanded((v) => !v)}
        >
          {isExpanded ? CONSOLE_TEXTS.banners.showLess : CONSOLE_TEXTS.banners.showMore}
        </Anchor>
      )}
      {children}
    </Alert>
  );
}
