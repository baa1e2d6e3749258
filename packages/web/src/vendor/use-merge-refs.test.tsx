import { render } from '@testing-library/react';
import { createRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useMergeRefs } from './use-merge-refs';

describe('useMergeRefs, which the console build gives Mantine’s ScrollArea (mantine-imports.plugin.ts)', () => {
  it('merges refs: each gets the node, and lets go of it (or runs its cleanup) on unmount', () => {
    const objectRef = createRef<HTMLDivElement>();
    const callbackRef = vi.fn();
    const cleanup = vi.fn();
    const withCleanup = vi.fn(() => cleanup);
    function Box() {
      const [shown] = useState(true);
      const ref = useMergeRefs<HTMLDivElement>([objectRef, callbackRef, withCleanup, undefined]);
      return shown ? <div ref={ref} data-testid="box" /> : null;
    }
    const { getByTestId, unmount } = render(<Box />);
    const node = getByTestId('box');
    expect(objectRef.current).toBe(node);
    expect(callbackRef).toHaveBeenCalledWith(node);
    expect(withCleanup).toHaveBeenCalledWith(node);
    unmount();
    expect(objectRef.current).toBeNull();
    expect(callbackRef).toHaveBeenLastCalledWith(null);
    expect(cleanup).toHaveBeenCalledTimes(1);
  });
});
