import {
  defaultRangeExtractor,
  measureElement as measureRow,
  observeElementRect,
  useVirtualizer,
  type Rect,
  type VirtualItem,
} from '@tanstack/react-virtual';
import { useCallback, useRef, useState, type FocusEvent } from 'react';

/**
 * When the scroll box reports no size (not laid out yet, or jsdom, which has no layout),
 * the rows are windowed as if it were this big: a screenful, never the whole page.
 */
export const FALLBACK_VIEWPORT: Rect = { width: 1280, height: 720 };

/**
 * Up to this many rows a page is rendered whole, not windowed: a screenful and its overscan
 * is about as many rows, and windowing them would only add its cost, a layout forced to
 * measure each new row and a second render of the table with the heights (on the devices
 * page, 25 rows: a sixth of the main thread's work from address to rows under Lighthouse).
 */
export const WINDOW_FROM_ROWS = 50;

export type VirtualRowsOptions = {
  count: number;
  /** A row's height before it is measured (px). */
  estimateRowHeight: number;
  /** Rows rendered beyond each edge of the viewport, so keyboard focus and fast scrolls find rows. */
  overscan?: number;
  getRowKey?: (index: number) => string | number;
};

/** A row to render, and the height of the rows left out just above it (px). */
export type VirtualRow = VirtualItem & { spaceBefore: number };

export type VirtualRows = {
  /** Callback ref for the element that scrolls (the table's scroll container). */
  scrollRef: (element: HTMLDivElement | null) => void;
  /** Scrolls that element back to its top (a new page, sort or filter). */
  scrollToTop: () => void;
  /** The rows to render now, in order. */
  rows: VirtualRow[];
  /** Height of the rows left out below the last one rendered (px). */
  paddingBottom: number;
  /** Ref for each rendered `<tr>` (with `data-index`), so rows of any height are measured. */
  measureRef: (element: HTMLTableRowElement | null) => void;
  /** Focus handlers for the `<tbody>`: the row holding focus stays rendered. */
  bodyProps: {
    onFocus: (event: FocusEvent<HTMLElement>) => void;
    onBlur: (event: FocusEvent<HTMLElement>) => void;
  };
};

/**
 * Windowing for a semantic `<table>` body (spec B section 9: pages of up to 500 rows): only
 * the rows in view plus `overscan` are in the DOM, and spacer rows keep the scroll height.
 * Rows stay `<tr>` in one `<tbody>` (no absolute positioning), so columns keep their widths,
 * a sticky header works and screen readers still read a table. The row holding keyboard
 * focus stays rendered when scrolled away, so focus is never dropped to the page.
 */
export function useVirtualRows({ count, estimateRowHeight, overscan = 8, getRowKey }: VirtualRowsOptions): VirtualRows {
  const windowed = count > WINDOW_FROM_ROWS;
  // Windowed, the box is state: attaching it re-renders, so the virtualizer measures it at once.
  // Not windowed, only a ref: that re-render would draw every row a second time, synchronously
  // (a quarter of a second of a phone's main thread on the devices page after it hydrates).
  // The ref callback changes with `windowed`, so React hands it the box again when a page
  // grows past the threshold.
  const boxRef = useRef<HTMLDivElement | null>(null);
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const scrollRef = useCallback(
    (element: HTMLDivElement | null) => {
      boxRef.current = element;
      if (windowed) setScrollElement(element);
    },
    [windowed],
  );
  // jsdom's elements have no scrollTo.
  const scrollToTop = useCallback(() => boxRef.current?.scrollTo?.({ top: 0 }), []);
  const [focusedIndex, setFocusedIndex] = useState<number | null>(null);
  // The virtualizer's getters read its mutable state; nothing here is memoised by hand, and
  // the console does not run the React Compiler, so its memoisation warning does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLTableRowElement>({
    count,
    enabled: windowed,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimateRowHeight,
    overscan,
    getItemKey: getRowKey,
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      if (focusedIndex === null || focusedIndex >= count || indexes.includes(focusedIndex)) return indexes;
      return [...indexes, focusedIndex].sort((a, b) => a - b);
    },
    initialRect: FALLBACK_VIEWPORT,
    observeElementRect: (instance, onRect) =>
      observeElementRect(instance, (rect) => onRect(rect.height > 0 ? rect : FALLBACK_VIEWPORT)),
    // An unmeasurable row (no layout) keeps its estimate: a height of 0 would let every row
    // into the window.
    measureElement: (element, entry, instance) => {
      const size = measureRow(element, entry, instance);
      return size > 0 ? size : estimateRowHeight;
    },
  });
  const rowIndexOf = (target: EventTarget | null) => {
    const row = target instanceof Element ? target.closest<HTMLElement>('tr[data-index]') : null;
    return row ? Number(row.dataset.index) : null;
  };
  const bodyProps = {
    onFocus: (event: FocusEvent<HTMLElement>) => setFocusedIndex(rowIndexOf(event.target)),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusedIndex(null);
    },
  };
  const measure = virtualizer.measureElement;
  const measureRef = useCallback(
    (element: HTMLTableRowElement | null) => {
      if (windowed) measure(element);
    },
    [measure, windowed],
  );
  if (!windowed) {
    const rows = Array.from({ length: count }, (_, index) => ({
      index,
      key: getRowKey?.(index) ?? index,
      start: index * estimateRowHeight,
      end: (index + 1) * estimateRowHeight,
      size: estimateRowHeight,
      lane: 0,
      spaceBefore: 0,
    }));
    return { scrollRef, scrollToTop, rows, paddingBottom: 0, measureRef, bodyProps };
  }
  const items = virtualizer.getVirtualItems();
  const rows = items.map((item, i) => ({ ...item, spaceBefore: item.start - (i > 0 ? items[i - 1]!.end : 0) }));
  const last = items[items.length - 1];
  const paddingBottom = last ? virtualizer.getTotalSize() - last.end : 0;
  return { scrollRef, scrollToTop, rows, paddingBottom, measureRef, bodyProps };
}
