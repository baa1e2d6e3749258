import {
  cloneElement,
  Suspense,
  useCallback,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';

type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  'aria-haspopup'?: 'menu' | 'dialog';
  'aria-expanded'?: boolean;
};

export type LoadOnUseProps = {
  /** The control as it looks once loaded (a menu's button); shown until it is pressed. */
  trigger: ReactElement<TriggerProps>;
  /** What kind of popup the trigger opens, for assistive technology before it loads. */
  popup: 'menu' | 'dialog';
  /** Downloads the popup's code: started when the trigger is pointed at or focused. */
  load: () => Promise<unknown>;
  /** The loaded control (a `lazy` component), rendered opened once the trigger is pressed. */
  children: ReactNode;
};

/**
 * A control whose popup (a menu, the zone switcher) loads on first use. Mantine's Menu and
 * Popover bring floating-ui (30 KiB gzipped with them), and a page renders many such controls
 * (a menu on every table row) that most visits never open. Pointing at or focusing the trigger
 * starts the download, so the popup is usually there by the time the trigger is pressed; the
 * press then swaps in the loaded control, opened (useOpenedOnLoad), and it manages itself from
 * then on.
 */
export function LoadOnUse({ trigger, popup, load, children }: LoadOnUseProps) {
  const [isUsed, setUsed] = useState(false);
  if (isUsed) return <Suspense fallback={trigger}>{children}</Suspense>;
  // A failed early download is not reported here: the press renders the lazy control, whose
  // own failure reaches the error boundary (and the reload prompt) as any chunk failure does.
  const prefetch = () => void load().catch(() => undefined);
  const { onClick, onPointerEnter, onFocus } = trigger.props;
  return cloneElement(trigger, {
    'aria-haspopup': popup,
    'aria-expanded': false,
    onPointerEnter: (event) => {
      prefetch();
      onPointerEnter?.(event);
    },
    onFocus: (event) => {
      prefetch();
      onFocus?.(event);
    },
    onClick: (event) => {
      onClick?.(event);
      setUsed(true);
    },
  });
}

/**
 * For the loaded control: whether it is open, and the ref its trigger takes. The trigger is a
 * new element (the one pressed was the stand-in), so it gets the focus the press gave the old
 * one before the popup opens: the popup, which gives focus back to what had it when it opened,
 * then returns it to the trigger when it closes.
 */
export function useOpenedOnLoad<T extends HTMLElement>() {
  const [opened, setOpened] = useState(false);
  const hasOpened = useRef(false);
  // A ref callback, not an effect: it runs as the trigger is attached, before the browser paints.
  const target = useCallback((node: T | null) => {
    if (!node || hasOpened.current) return;
    hasOpened.current = true;
    node.focus();
    setOpened(true);
  }, []);
  return { target, opened, setOpened };
}
