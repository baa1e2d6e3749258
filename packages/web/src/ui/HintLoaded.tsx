import { Tooltip, type TooltipProps } from '@mantine/core';
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type Ref,
} from 'react';

type AnchorProps = {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
};

export type HintProps = Pick<TooltipProps, 'label' | 'multiline' | 'maw' | 'w' | 'position' | 'withArrow'> & {
  /** What the hint explains: a focusable element, so keyboard users reach the hint too. */
  children: ReactElement<Pick<AnchorProps, 'onMouseEnter' | 'onFocus'>>;
};

/**
 * The hint once loaded (Hint.tsx), opened: it is mounted by the hover or focus that wanted it.
 * The element it explains is a new one, so focus is given back to it when focus was what
 * asked; from then on hover and focus open the tooltip, leaving, blur and Escape close it.
 */
export function HintLoaded({
  children,
  isFocused,
  ...tooltip
}: Omit<HintProps, 'children'> & { children: HintProps['children']; isFocused: boolean }) {
  const [opened, setOpened] = useState(true);
  const anchor = useRef<HTMLElement>(null);
  useEffect(() => {
    if (isFocused) anchor.current?.focus();
  }, [isFocused]);
  const props = children.props as AnchorProps;
  return (
    <Tooltip {...tooltip} opened={opened}>
      {cloneElement(children as ReactElement<AnchorProps>, {
        ref: anchor,
        onMouseEnter: (event) => {
          props.onMouseEnter?.(event);
          setOpened(true);
        },
        onMouseLeave: (event) => {
          props.onMouseLeave?.(event);
          setOpened(false);
        },
        onFocus: (event) => {
          props.onFocus?.(event);
          setOpened(true);
        },
        onBlur: (event) => {
          props.onBlur?.(event);
          setOpened(false);
        },
        onKeyDown: (event) => {
          props.onKeyDown?.(event);
          if (event.key === 'Escape') setOpened(false);
        },
      })}
    </Tooltip>
  );
}
