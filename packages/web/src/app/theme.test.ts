import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { MIN_TEXT_CONTRAST, contrastRatio, modalSizeVar, readableVariantColors, theme } from './theme';

describe('modal sizes', () => {
  it('maps the presets to the spec sizes and leaves custom widths alone', () => {
    expect(modalSizeVar('sm')).toBe('32rem');
    expect(modalSizeVar('md')).toBe('48rem');
    expect(modalSizeVar(undefined)).toBe('48rem');
    expect(modalSizeVar('lg')).toBe('64rem');
    expect(modalSizeVar('xl')).toBe('72rem');
    expect(modalSizeVar('43rem')).toBeUndefined();
  });
});

describe('badge and variant colours', () => {
  const full = mergeMantineTheme(DEFAULT_THEME, theme);
  const vars = readableVariantColors(full);

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    // Mantine's own light badge, green 9 on green 1: the 3.8:1 axe reported.
    expect(contrastRatio(full.colors.green[9], full.colors.green[1])).toBeLessThan(4.5);
  });

  it.each(Object.keys(DEFAULT_THEME.colors))('reads at 4.5:1 or better in every variant of %s', (name) => {
    const shades = full.colors[name]!;
    expect(contrastRatio(vars[`--mantine-color-${name}-light-color`]!, shades[1])).toBeGreaterThanOrEqual(
      MIN_TEXT_CONTRAST,
    );
    expect(contrastRatio(vars[`--mantine-color-${name}-outline`]!, '#ffffff')).toBeGreaterThanOrEqual(
      MIN_TEXT_CONTRAST,
    );
    expect(contrastRatio(vars[`--mantine-color-${name}-text`]!, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});
