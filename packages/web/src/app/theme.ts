import { MODAL_SIZES } from '@patchwell/core/constants';
import { Modal, Notification, createTheme, type CSSVariablesResolver } from '@mantine/core';

type ModalPreset = keyof typeof MODAL_SIZES;
const isPreset = (size: unknown): size is ModalPreset => typeof size === 'string' && Object.hasOwn(MODAL_SIZES, size);

/** The spec's modal sizes (sm 32rem, md 48rem, lg 64rem, xl 72rem) in place of Mantine's. */
export function modalSizeVar(size: unknown): string | undefined {
  if (size === undefined) return MODAL_SIZES.md;
  return isPreset(size) ? MODAL_SIZES[size] : undefined;
}

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white text on filled buttons and blue links above 4.5:1 contrast.
  primaryShade: 8,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji"',
  defaultRadius: 'sm',
  components: {
    Modal: Modal.extend({
      vars: (_theme, props) => {
        const size = modalSizeVar(props.size);
        return { root: size ? { '--modal-size': size } : {} };
      },
    }),
    Notification: Notification.extend({
      // Server errors are joined by newlines (spec A section 8).
      styles: { description: { whiteSpace: 'pre-line' } },
    }),
  },
});

/** Darker dimmed and error text than Mantine's defaults, for WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-placeholder': t.colors.gray[6],
  },
  dark: {},
});
