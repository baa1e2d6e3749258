import { TEXTS } from '@patchwell/core/texts';
import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { notify } from './notify';

/** Can this browser save a link's target as a file (the `download` attribute)? */
export function canDownloadFiles(): boolean {
  return typeof document !== 'undefined' && 'download' in document.createElement('a');
}

/** A download link's click: in a browser that cannot save links, the spec's error instead (B section 8). */
export function guardCsvDownload(e: MouseEvent<HTMLElement>): void {
  if (canDownloadFiles()) return;
  e.preventDefault();
  notify.error(TEXTS.remediation.csvUnsupported);
}

export type CsvDownloadButtonProps = Omit<ButtonProps, 'children'> & {
  href: string;
  label: string;
  /** A longer name for screen readers when several such buttons are on one page. */
  ariaLabel?: string;
};

/**
 * A CSV download as a plain link the browser saves (the server sends Content-Disposition),
 * so a large export streams to disk instead of through the page. A browser that cannot save
 * links gets the spec's error instead (B section 8).
 */
export function CsvDownloadButton({ href, label, ariaLabel, ...button }: CsvDownloadButtonProps) {
  return (
    <Button
      component="a"
      href={href}
      download
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden="true" />}
      aria-label={ariaLabel}
      onClick={guardCsvDownload}
      {...button}
    >
      {label}
    </Button>
  );
}
