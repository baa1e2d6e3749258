import { cloneElement, lazy, Suspense, useState } from 'react';
import type { HintProps } from './HintLoaded';

const HintLoaded = lazy(() => import('./HintLoaded').then((m) => ({ default: m.HintLoaded })));

/**
 * A tooltip shown on hover and on keyboard focus, whose code (Mantine's Tooltip and
 * floating-ui) loads the first time it is wanted: a table can hold a hint on every row, and
 * most visits point at none. Until then the element stands alone; the first hover or focus
 * loads the tooltip and shows it (HintLoaded.tsx).
 */
export function Hint({ children, ...tooltip }: HintProps) {
  const [wantedBy, setWantedBy] = useState<'pointer' | 'focus' | null>(null);
  if (wantedBy)
    return (
      <Suspense fallback={children}>
        <HintLoaded {...tooltip} isFocused={wantedBy === 'focus'}>
          {children}
        </HintLoaded>
      </Suspense>
    );
  const { onMouseEnter, onFocus } = children.props;
  return cloneElement(children, {
    onMouseEnter: (event) => {
      onMouseEnter?.(event);
      setWantedBy('pointer');
    },
    onFocus: (event) => {
      onFocus?.(event);
      setWantedBy('focus');
    },
  });
}
