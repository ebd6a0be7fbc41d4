/**
 * A Preact hook over @tanstack/virtual-core's Virtualizer (the adapter its React package is, in a
 * few lines): which rows of a long list are in view, re-rendering when the scroll moves.
 */
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

export type RowVirtualizer = Virtualizer<HTMLElement, Element>;

export function useVirtualRows(
  options: Pick<VirtualizerOptions<HTMLElement, Element>, 'count' | 'getScrollElement'> & {
    rowHeight: number;
    /** Height above the first row inside the scroll element (a sticky table head). */
    headHeight: number;
  },
): RowVirtualizer {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const resolved: VirtualizerOptions<HTMLElement, Element> = {
    count: options.count,
    getScrollElement: options.getScrollElement,
    estimateSize: () => options.rowHeight,
    overscan: 12,
    paddingStart: options.headHeight,
    scrollPaddingStart: options.headHeight,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange: () => rerender(0),
  };
  const [virtualizer] = useState(() => new Virtualizer(resolved));
  virtualizer.setOptions(resolved);
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}
