import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientConfigShape, parseClientConfig } from './config.parse';
import { ZClientConfig } from './config.schema';

/** Mostly the right type, sometimes any JSON value, sometimes missing. */
const maybe = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: good, weight: 12 },
    { arbitrary: fc.jsonValue(), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );

const withExtra = <T extends object>(arb: fc.Arbitrary<T>) =>
  fc
    .tuple(arb, fc.dictionary(fc.constantFrom('extra', 'x', 'more'), fc.jsonValue()))
    .map(([o, extra]) => ({ ...extra, ...o }));

const pair = (a: string, b: string) =>
  maybe(withExtra(fc.record({ [a]: maybe(fc.string()), [b]: maybe(fc.string()) })));

const config = withExtra(
  fc.record({
    environment: maybe(fc.string()),
    version: maybe(fc.string()),
    countries: maybe(fc.array(pair('name', 'code'), { maxLength: 3 })),
    help_links: maybe(fc.array(pair('label', 'url'), { maxLength: 3 })),
    support_url: maybe(fc.string()),
    docs_url: maybe(fc.string()),
    session: maybe(
      withExtra(
        fc.record({
          idle_timeout_minutes: maybe(fc.oneof(fc.integer(), fc.double())),
          max_lifetime_minutes: maybe(fc.oneof(fc.integer(), fc.double())),
        }),
      ),
    ),
    signup_enabled: maybe(fc.boolean()),
    password_reset_enabled: maybe(fc.boolean()),
  }),
);

describe('parseClientConfig', () => {
  it('accepts and returns what ZClientConfig accepts and returns, and rejects what it rejects', () => {
    fc.assert(
      fc.property(fc.oneof({ arbitrary: config, weight: 9 }, { arbitrary: fc.jsonValue(), weight: 1 }), (value) => {
        // JSON.parse never yields undefined members: compare on what the server can send.
        const sent: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        const expected = ZClientConfig.safeParse(sent);
        const actual = ClientConfigShape.safeParse(sent);
        expect(actual.success).toBe(expected.success);
        if (expected.success && actual.success) expect(actual.data).toEqual(expected.data);
      }),
      { numRuns: 2000 },
    );
  });

  it('names where the payload went wrong', () => {
    const result = ClientConfigShape.safeParse({ environment: 'x', version: 1 });
    expect(result).toEqual({ success: false, error: { issues: [{ path: ['version'], message: 'Expected string' }] } });
    expect(() => parseClientConfig(null)).toThrow('Expected object');
  });
});
