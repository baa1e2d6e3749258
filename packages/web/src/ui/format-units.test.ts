import { describe, expect, it } from 'vitest';
import { formatOs } from './format-units';

describe('formatOs', () => {
  it('shows the version once when the name already carries it', () => {
    expect(formatOs('macOS Sequoia 15.1', '15.1')).toBe('macOS Sequoia 15.1');
    expect(formatOs('Rocky Linux 9.4 (Blue Onyx)', '9.4')).toBe('Rocky Linux 9.4 (Blue Onyx)');
  });
  it('adds the version when the name lacks it, and copes with an empty one', () => {
    expect(formatOs('Windows 11 Pro', '10.0.22631')).toBe('Windows 11 Pro 10.0.22631');
    expect(formatOs('Debian GNU/Linux', '')).toBe('Debian GNU/Linux');
  });
});
