import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidRedirect, safeRedirect } from './redirect';

const ORIGIN = 'https://console.patchwell.test';

describe('isValidRedirect', () => {
  it.each(['/devices', '/devices/12?o=3', '/reports/overview?o=1#top', '/manage/policies/7', '/settings/keys?o=2'])(
    'accepts the in-console path %s',
    (path) => expect(isValidRedirect(path)).toBe(true),
  );

  it.each([
    ['a bare root', '/'],
    ['a bare root with a query', '/?o=1'],
    ['an absolute URL', 'https://evil.example/devices'],
    ['a protocol-relative URL', '//evil.example/devices'],
    ['a backslash trick', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a scheme after the slash', '/javascript:alert(1)'],
    ['a domain-looking value', 'evil.example'],
    ['a domain-looking path', '/evil.example/devices'],
    ['a domain with a port', '/evil.example:8080'],
    ['a relative path', 'devices'],
    ['an empty value', ''],
    ['surrounding spaces', ' /devices'],
    ['a newline', '/devices\n'],
    ['a dot segment that resolves to the root', '/.'],
    ['a parent segment', '/devices/../evil.example'],
    ['an encoded dot segment', '/%2e%2e/devices'],
  ])('rejects %s', (_label, value) => expect(isValidRedirect(value)).toBe(false));

  it('rejects missing values', () => {
    expect(isValidRedirect(undefined)).toBe(false);
    expect(isValidRedirect(null)).toBe(false);
  });

  it('never lets an accepted value leave the origin (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        if (!isValidRedirect(s)) return;
        const url = new URL(s, ORIGIN);
        expect(url.origin).toBe(ORIGIN);
        expect(url.pathname).not.toBe('/');
      }),
      { numRuns: 5000 },
    );
  });

  it('never accepts an absolute URL (property)', () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        expect(isValidRedirect(url)).toBe(false);
      }),
    );
  });

  it('accepts ordinary console paths (property)', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.nat(100000), (segments, o) => {
        expect(isValidRedirect(`/${segments.join('/')}?o=${o}`)).toBe(true);
      }),
    );
  });

  it('falls back when unsafe', () => {
    expect(safeRedirect('https://evil.example')).toBe('/dashboard');
    expect(safeRedirect('/devices?o=1')).toBe('/devices?o=1');
    expect(safeRedirect(undefined, '/login')).toBe('/login');
  });
});
