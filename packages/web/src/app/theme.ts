import { MODAL_SIZES } from '@patchwell/core/constants';
import {
  Notification,
  createTheme,
  darken,
  toRgba,
  type CSSVariablesResolver,
  type MantineTheme,
  type ModalProps,
} from '@mantine/core';

type ModalPreset = keyof typeof MODAL_SIZES;
const isPreset = (size: unknown): size is ModalPreset => typeof size === 'string' && Object.hasOwn(MODAL_SIZES, size);

/** The spec's modal sizes (sm 32rem, md 48rem, lg 64rem, xl 72rem) in place of Mantine's. */
export function modalSizeVar(size: unknown): string | undefined {
  if (size === undefined) return MODAL_SIZES.md;
  return isPreset(size) ? MODAL_SIZES[size] : undefined;
}

export const theme = createTheme({
  // A person who asks the system for less motion gets none: snackbars, menus and modals appear
  // at once (a snackbar fading in was also, mid-fade, text below 4.5:1 contrast).
  respectReducedMotion: true,
  primaryColor: 'blue',
  // Shade 8 keeps white text on filled buttons and blue links above 4.5:1 contrast.
  primaryShade: 8,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji"',
  defaultRadius: 'sm',
  components: {
    // What Modal.extend() returns, written out: importing Modal here would put the modal's code
    // (and the scroll area and floating-ui under it) on the login page.
    Modal: {
      vars: (_theme: MantineTheme, props: ModalProps) => {
        const size = modalSizeVar(props.size);
        return { root: size ? { '--modal-size': size } : {} };
      },
    },
    Notification: Notification.extend({
      // Server errors are joined by newlines (spec A section 8).
      styles: { description: { whiteSpace: 'pre-line' } },
    }),
  },
});

/** WCAG AA for normal text (badge labels are small): 4.5:1, with a margin for rounding. */
export const MIN_TEXT_CONTRAST = 4.6;

function relativeLuminance(color: string): number {
  const { r, g, b } = toRgba(color);
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The WCAG contrast ratio of two opaque colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color`, darkened in small steps until it reads on `background` at {@link MIN_TEXT_CONTRAST}. */
export function readableOn(color: string, background: string): string {
  let shade = color;
  for (let step = 1; contrastRatio(shade, background) < MIN_TEXT_CONTRAST && step <= 20; step++) {
    shade = darken(color, step * 0.05);
  }
  return shade;
}

/**
 * Text colours of the light and outline variants (badges, light buttons, alerts) and of
 * coloured text, for every theme colour: Mantine's shade 9 on shade 1 gives 3.8:1 for green
 * and less for yellow or orange. Each is darkened just enough to read on its background.
 */
export function readableVariantColors(t: MantineTheme): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, shades] of Object.entries(t.colors)) {
    if (!shades) continue;
    out[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[1]);
    out[`--mantine-color-${name}-outline`] = readableOn(shades[8], '#ffffff');
    out[`--mantine-color-${name}-text`] = readableOn(shades[8], '#ffffff');
  }
  return out;
}

/** Darker dimmed and error text than Mantine's defaults, for WCAG AA contrast on white. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    ...readableVariantColors(t),
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-placeholder': t.colors.gray[6],
  },
  dark: {},
});
