import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPathLikeName, isValidDate, isValidTime } from './datetime';

describe('isValidDate', () => {
  it('accepts real YYYY-MM-DD dates, leap days included', () => {
    expect(isValidDate('2026-11-21')).toBe(true);
    expect(isValidDate('2024-02-29')).toBe(true);
  });
  it.each(['2023-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-1-01', '26-11-21', '2026/11/21', ''])(
    'rejects %s',
    (v) => expect(isValidDate(v)).toBe(false),
  );
  it('agrees with the calendar for every day (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), (d) => {
        expect(isValidDate(d.toISOString().slice(0, 10))).toBe(true);
      }),
    );
  });
});

describe('isValidTime', () => {
  it('accepts 24-hour HH:mm', () => {
    for (const t of ['00:00', '09:05', '12:30', '23:59']) expect(isValidTime(t)).toBe(true);
  });
  it('rejects other forms', () => {
    for (const t of ['24:00', '9:05', '12:60', '12:30:00', '1230', '12:30 PM']) expect(isValidTime(t)).toBe(false);
  });
});

describe('isPathLikeName', () => {
  it('allows letters, digits, dot, underscore, tilde and hyphen', () => {
    expect(isPathLikeName('report_2026-11.v2~final')).toBe(true);
  });
  it('rejects spaces and other characters', () => {
    for (const v of ['my report', 'a/b', 'x$', '', 'ü']) expect(isPathLikeName(v)).toBe(false);
  });
});
