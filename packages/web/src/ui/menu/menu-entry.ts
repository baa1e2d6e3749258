import type { FloatingPosition } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import type { LoadOnUseProps } from '../LoadOnUse';

/** One line of an action menu. */
export type MenuAction = {
  label: string;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  /** A route in the console (a router link). */
  to?: string;
  /** A plain link: a file to download, or a page elsewhere (`newTab`). */
  href?: string;
  download?: boolean;
  newTab?: boolean;
  color?: 'red';
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  ariaLabel?: string;
  /** Shown disabled, with why in a tooltip (still hoverable, so the tooltip shows). */
  disabledReason?: string;
};

export type MenuEntry = MenuAction | { divider: true } | { heading: string };

export type ActionMenuProps = {
  /** The button that opens the menu. */
  target: LoadOnUseProps['trigger'];
  /**
   * The menu's lines, asked for when it opens (a row's menu costs nothing until then); a
   * falsy entry is left out, so lines can be written `canDelete && { … }`.
   */
  entries: () => readonly (MenuEntry | false | null | undefined)[];
  position?: FloatingPosition;
  width?: number;
};
