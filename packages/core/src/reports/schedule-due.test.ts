import { describe, expect, it } from 'vitest';
import { nextDueAt, previousDueAt, type DueSchedule } from './schedule-due';
import { ZReportScheduleBody, isValidScheduleTimezone, REPORT_SCHEDULE_TEXTS } from './schedules.schema';

const paris = (s: Partial<DueSchedule>): DueSchedule => ({
  frequency: 'daily',
  day_of_week: null,
  day_of_month: null,
  time: '08:00',
  timezone: 'Europe/Paris',
  ...s,
});

/** Due times after `from`, `n` of them, as ISO strings. */
function dues(s: DueSchedule, from: string, n: number): string[] {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    at = nextDueAt(s, at);
    out.push(at.toISOString());
  }
  return out;
}

describe('nextDueAt', () => {
  it('keeps 08:00 Paris time across the spring-forward change (UTC+1 → UTC+2 on 2026-03-29)', () => {
    expect(dues(paris({}), '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
    ]);
  });

  it('sends a time skipped by the gap at the first instant after it, once', () => {
    expect(dues(paris({ time: '02:30' }), '2026-03-28T12:00:00Z', 2)).toEqual([
      '2026-03-29T01:00:00.000Z', // 03:00 CEST, the first valid instant
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('sends a time repeated by the fall-back (2026-10-25) once, at its first occurrence', () => {
    expect(dues(paris({ time: '02:30' }), '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST; 02:30 CET an hour later is not sent again
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('sends weekly on the chosen ISO day', () => {
    // 2026-03-02 is a Monday; Friday is 5.
    expect(dues(paris({ frequency: 'weekly', day_of_week: 5 }), '2026-03-02T00:00:00Z', 2)).toEqual([
      '2026-03-06T07:00:00.000Z',
      '2026-03-13T07:00:00.000Z',
    ]);
  });

  it('sends monthly on the 31st, or on the last day of a shorter month', () => {
    expect(dues(paris({ frequency: 'monthly', day_of_month: 31 }), '2026-01-15T00:00:00Z', 5)).toEqual([
      '2026-01-31T07:00:00.000Z',
      '2026-02-28T07:00:00.000Z',
      '2026-03-31T06:00:00.000Z', // after the change to summer time
      '2026-04-30T06:00:00.000Z',
      '2026-05-31T06:00:00.000Z',
    ]);
    expect(dues(paris({ frequency: 'monthly', day_of_month: 29 }), '2028-02-01T00:00:00Z', 1)).toEqual([
      '2028-02-29T07:00:00.000Z', // a leap year's February has the 29th
    ]);
  });

  it('is strictly after its argument: the due time itself gives the next one', () => {
    const s = paris({});
    const first = nextDueAt(s, new Date('2026-03-02T06:59:59Z'));
    expect(first.toISOString()).toBe('2026-03-02T07:00:00.000Z');
    expect(nextDueAt(s, first).toISOString()).toBe('2026-03-03T07:00:00.000Z');
  });
});

describe('previousDueAt', () => {
  it('goes back one local day, week or month at the same wall time', () => {
    expect(previousDueAt(paris({}), new Date('2026-03-30T06:00:00Z')).toISOString()).toBe('2026-03-29T06:00:00.000Z');
    expect(previousDueAt(paris({}), new Date('2026-03-29T06:00:00Z')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
    expect(
      previousDueAt(paris({ frequency: 'weekly', day_of_week: 1 }), new Date('2026-03-30T06:00:00Z')).toISOString(),
    ).toBe('2026-03-23T07:00:00.000Z');
    expect(
      previousDueAt(paris({ frequency: 'monthly', day_of_month: 31 }), new Date('2026-03-31T06:00:00Z')).toISOString(),
    ).toBe('2026-02-28T07:00:00.000Z');
  });
});

describe('ZReportScheduleBody', () => {
  const valid = {
    name: 'Weekly prepatch',
    kind: 'prepatch',
    frequency: 'weekly',
    day_of_week: 1,
    time: '08:00',
    timezone: 'Europe/Paris',
    recipients: [' Ops@Example.com ', 'cto@example.com'],
  };

  it('accepts a valid schedule, normalises recipients and drops the other frequency’s day', () => {
    const parsed = ZReportScheduleBody.parse({ ...valid, day_of_month: 12 });
    expect(parsed).toMatchObject({
      recipients: ['ops@example.com', 'cto@example.com'],
      day_of_month: null,
      enabled: true,
    });
  });

  it('refuses bad timezones, times, days and recipients with the texts the form shows', () => {
    const messages = (body: object) => {
      const r = ZReportScheduleBody.safeParse({ ...valid, ...body });
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(messages({ timezone: 'Mars/Olympus' })).toEqual([REPORT_SCHEDULE_TEXTS.timezone]);
    expect(messages({ timezone: 'UTC+0100' })).toEqual([REPORT_SCHEDULE_TEXTS.timezone]);
    expect(messages({ time: '24:00' })).toEqual([REPORT_SCHEDULE_TEXTS.time]);
    expect(messages({ day_of_week: null })).toEqual([REPORT_SCHEDULE_TEXTS.dayOfWeek]);
    expect(messages({ frequency: 'monthly' })).toEqual([REPORT_SCHEDULE_TEXTS.dayOfMonth]);
    expect(messages({ recipients: [] })).toEqual([REPORT_SCHEDULE_TEXTS.recipientsRequired]);
    expect(messages({ recipients: ['not-an-address'] })).toEqual([
      REPORT_SCHEDULE_TEXTS.recipientInvalid('not-an-address'),
    ]);
    expect(messages({ recipients: ['a@example.com', 'A@example.com'] })).toEqual([
      REPORT_SCHEDULE_TEXTS.recipientDuplicate('a@example.com'),
    ]);
    expect(messages({ recipients: Array.from({ length: 51 }, (_, i) => `u${i}@example.com`) })).toEqual([
      REPORT_SCHEDULE_TEXTS.recipientsMax,
    ]);
  });

  it('knows IANA names and UTC, not offsets or nonsense', () => {
    expect(['Europe/Paris', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5'].map(isValidScheduleTimezone)).toEqual(
      [true, true, true, true],
    );
    expect(['', 'Paris', 'UTC+0100', '../etc'].map(isValidScheduleTimezone)).toEqual([false, false, false, false]);
  });
});
