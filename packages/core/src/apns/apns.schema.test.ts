import { describe, expect, it } from 'vitest';
import { ONE_DAY_MS } from '../constants';
import { APNS_TEXTS, apnsExpiry, ZUploadApnsCertificateBody } from './apns.schema';

describe('apnsExpiry', () => {
  const end = new Date('2027-03-02T09:00:00Z');
  const before = (ms: number) => new Date(end.getTime() - ms);

  it('warns from 30 days before the end, not earlier, and counts whole days left', () => {
    expect(apnsExpiry(end, before(31 * ONE_DAY_MS))).toEqual({ days_left: 31, expiring_soon: false, expired: false });
    expect(apnsExpiry(end, before(30 * ONE_DAY_MS + 1))).toMatchObject({ days_left: 30, expiring_soon: false });
    expect(apnsExpiry(end, before(30 * ONE_DAY_MS))).toMatchObject({ days_left: 30, expiring_soon: true });
    expect(apnsExpiry(end, before(ONE_DAY_MS - 1))).toEqual({ days_left: 0, expiring_soon: true, expired: false });
  });

  it('is expired from its end on', () => {
    expect(apnsExpiry(end, end)).toEqual({ days_left: 0, expiring_soon: false, expired: true });
    expect(apnsExpiry(end, new Date(end.getTime() + ONE_DAY_MS))).toMatchObject({ expired: true });
  });
});

describe('the upload body', () => {
  const issues = (body: unknown) => {
    const parsed = ZUploadApnsCertificateBody.safeParse(body);
    return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  };

  it('takes PEM text and base64 bytes, and refuses what is empty, too large or not base64', () => {
    expect(issues({ format: 'pem', data: '-----BEGIN CERTIFICATE-----' })).toEqual([]);
    expect(issues({ format: 'pkcs12', data: 'TUlJQw==', password: 'x' })).toEqual([]);
    expect(issues({ format: 'pem', data: '' })).toEqual([APNS_TEXTS.fileRequired]);
    expect(issues({ format: 'pem', data: 'é'.repeat(40_000) })).toEqual([APNS_TEXTS.fileTooLarge]);
    expect(issues({ format: 'der', data: 'A'.repeat(100_000) })).toEqual([APNS_TEXTS.fileTooLarge]);
    expect(issues({ format: 'der', data: 'not base64!' })).toEqual([APNS_TEXTS.notBase64]);
  });
});
