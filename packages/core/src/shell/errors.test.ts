import { describe, expect, it } from 'vitest';
import { TEXTS } from '../texts';
import { errorMessages, errorSnackbarText } from './errors';

describe('errorSnackbarText', () => {
  it('formats each error shape the server may send', () => {
    expect(errorSnackbarText({ errors: 'Zone not found' })).toBe('Error: Zone not found');
    expect(errorSnackbarText({ errors: ['a', 'b'] })).toBe('Error: a\nb');
    expect(errorSnackbarText({ errors: [{ errors: ['a'] }, { errors: ['b', 'c'] }] })).toBe('Error: a\nb\nc');
    expect(errorSnackbarText({ errors: { name: ['a'], email: ['b'] } })).toBe('Error: a\nb');
  });
  it('falls back to the message, then to the generic text', () => {
    expect(errorSnackbarText({ message: 'Nope' })).toBe('Error: Nope');
    expect(errorSnackbarText({ errors: [], message: 'Nope' })).toBe('Error: Nope');
    expect(errorSnackbarText({})).toBe(TEXTS.generic.unexpected);
    expect(errorSnackbarText('<html>')).toBe(TEXTS.generic.unexpected);
    expect(errorMessages(null)).toBe('');
  });
});
