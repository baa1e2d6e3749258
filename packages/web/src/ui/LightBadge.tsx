import { Badge } from '@mantine/core';
import type { ComponentProps, CSSProperties } from 'react';

// Mantine's own classes for its badge (`Badge.classes`).
const ROOT = `${Badge.classes.root} mantine-Badge-root`;
const LABEL = `${Badge.classes.label} mantine-Badge-label`;

/**
 * A badge of Mantine's `light` variant as the two plain elements Mantine's `Badge` renders, with
 * the colour variables its variant resolver gives a theme colour. Status badges sit on every
 * row of the long lists, where each Mantine component resolving its props and styles cost a
 * page of rows more than the rows' own elements (issue 16). The label is shown whole: a status
 * word is short, and "ONLI…" in a narrow column says nothing.
 */
export function LightBadge({ color, style, children, ...props }: ComponentProps<'div'> & { color: string }) {
  const vars = {
    '--badge-bg': `var(--mantine-color-${color}-light)`,
    '--badge-color': `var(--mantine-color-${color}-light-color)`,
    '--badge-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  } as CSSProperties;
  return (
    <div data-variant="light" className={ROOT} style={{ ...vars, ...style }} {...props}>
      <span className={LABEL} style={{ overflow: 'visible' }}>
        {children}
      </span>
    </div>
  );
}
