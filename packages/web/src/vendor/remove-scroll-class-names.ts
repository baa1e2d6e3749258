/**
 * What Mantine's AppShell reads of react-remove-scroll: the class that keeps a fixed header,
 * footer or aside clear of the scrollbar's gap while a dialog locks the page's scroll. The
 * scroll lock itself loads with the dialogs (mantine-imports.plugin.ts); the names are
 * react-remove-scroll's own (remove-scroll-class-names.test.ts holds them to it).
 */
export const RemoveScroll = {
  classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' },
} as const;
