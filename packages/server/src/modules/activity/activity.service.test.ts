import { describe, expect, it } from 'vitest';
import { changesOf, withoutSecrets } from './activity.service';

describe('withoutSecrets', () => {
  it('drops passwords, tokens, keys, hashes and one-time codes at any depth, and keeps the rest', () => {
    expect(
      withoutSecrets({
        name: 'x',
        password: 'p',
        new_password1: 'p',
        access_key: 'k',
        key: 'k',
        token: 't',
        key_hash: 'h',
        totp_secret: 's',
        otp: '123456',
        api_key_id: 4,
        exit_code: 1,
        hotpatch: true,
        changes: { notes: { from: 'a', to: 'b' }, password: { from: 'a', to: 'b' } },
        nested: [{ secret: 's', ok: 1 }],
      }),
    ).toEqual({
      name: 'x',
      api_key_id: 4,
      exit_code: 1,
      hotpatch: true,
      changes: { notes: { from: 'a', to: 'b' } },
      nested: [{ ok: 1 }],
    });
  });
});

describe('changesOf', () => {
  it('keeps only the fields given in the change that differ', () => {
    expect(changesOf<Record<string, unknown>>({ a: 1, b: [1, 2], c: 'x' }, { a: 1, b: [2], d: undefined })).toEqual({
      b: { from: [1, 2], to: [2] },
    });
    expect(changesOf({ at: new Date(1) }, { at: new Date(1) })).toEqual({});
  });
});
