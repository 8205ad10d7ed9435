import type { SystemStyleObject } from '@chakra-ui/react';

/**
 * The cells of a column pinned to the table's end (a row's actions): they stay in view while the
 * rest of a wide table scrolls sideways under them. The background covers what scrolls beneath;
 * the inset line marks the edge. Header cells sit above body cells where both are sticky.
 */
export function pinnedCellCss(pinned: boolean, header = false): SystemStyleObject | undefined {
  if (!pinned) return undefined;
  return {
    position: 'sticky',
    insetInlineEnd: 0,
    zIndex: header ? 2 : 1,
    bg: 'bg',
    boxShadow: 'inset 1px 0 0 var(--chakra-colors-border)',
  };
}
