import { describe, expect, it } from 'vitest';
import { modalSizeVar } from './theme';

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
