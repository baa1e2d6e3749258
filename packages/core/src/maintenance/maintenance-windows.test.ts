import { describe, expect, it } from 'vitest';
import { isInside, nextWindow, occurrenceAt, type WindowRule } from './maintenance-windows';
import { MAINTENANCE_WINDOW_TEXTS, ZMaintenanceWindowBody } from './maintenance-windows.schema';

const at = (iso: string) => new Date(iso);
const iso = (d: Date | undefined) => d?.toISOString();

const weekly = (timezone: string, days: number[], start_time: string, duration_minutes: number): WindowRule => ({
  timezone,
  schedule: { kind: 'weekly', days, start_time, duration_minutes },
});

describe('occurrenceAt', () => {
  it('finds the next weekly occurrence in the window’s timezone', () => {
    // Saturdays 22:00 New York time (EDT, UTC-4 in June) for 3 hours.
    const w = weekly('America/New_York', [6], '22:00', 180);
    const o = occurrenceAt(w, at('2026-06-10T12:00:00Z')); // a Wednesday
    expect(iso(o?.start)).toBe('2026-06-14T02:00:00.000Z');
    expect(iso(o?.end)).toBe('2026-06-14T05:00:00.000Z');
  });

  it('answers the occurrence under way, even one that started the day before', () => {
    const w = weekly('Europe/Berlin', [5], '23:00', 120); // Fridays 23:00–01:00
    const o = occurrenceAt(w, at('2026-06-12T22:30:00Z')); // Saturday 00:30 in Berlin
    expect(iso(o?.start)).toBe('2026-06-12T21:00:00.000Z');
    expect(isInside([w], at('2026-06-12T22:30:00Z'))).toBe(true);
    expect(isInside([w], at('2026-06-12T23:00:00Z'))).toBe(false); // the end is exclusive
  });

  it('opens a start inside the spring-forward gap past the gap', () => {
    // Europe/Berlin jumps 02:00 → 03:00 on Sunday 2026-03-29; 02:30 does not exist that night.
    const w = weekly('Europe/Berlin', [7], '02:30', 60);
    const o = occurrenceAt(w, at('2026-03-28T12:00:00Z'));
    expect(iso(o?.start)).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
    expect(iso(o?.end)).toBe('2026-03-29T02:30:00.000Z');
  });

  it('opens a start repeated by the fall-back once, at its later instant', () => {
    // 2026-10-25 02:30 happens at 00:30Z (CEST) and again at 01:30Z (CET).
    const w = weekly('Europe/Berlin', [7], '02:30', 60);
    const o = occurrenceAt(w, at('2026-10-24T12:00:00Z'));
    expect(iso(o?.start)).toBe('2026-10-25T01:30:00.000Z');
    expect(isInside([w], at('2026-10-25T00:45:00Z'))).toBe(false);
    expect(isInside([w], at('2026-10-25T01:45:00Z'))).toBe(true);
  });

  it('keeps a recurring window’s elapsed length over a DST change, and its local start the week after', () => {
    // Saturday 22:00 for 8 hours, over the night Berlin falls back.
    const w = weekly('Europe/Berlin', [6], '22:00', 480);
    const o = occurrenceAt(w, at('2026-10-24T12:00:00Z'));
    expect(iso(o?.start)).toBe('2026-10-24T20:00:00.000Z'); // 22:00 CEST
    expect(iso(o?.end)).toBe('2026-10-25T04:00:00.000Z'); // 8 h later (05:00 CET)
    const next = occurrenceAt(w, at('2026-10-25T05:00:00Z'));
    expect(iso(next?.start)).toBe('2026-10-31T21:00:00.000Z'); // 22:00 CET
  });

  it('opens a monthly window on the month’s last day when the month lacks the day', () => {
    const w: WindowRule = {
      timezone: 'UTC',
      schedule: { kind: 'monthly', day_of_month: 31, start_time: '01:00', duration_minutes: 60 },
    };
    expect(iso(occurrenceAt(w, at('2026-02-01T00:00:00Z'))?.start)).toBe('2026-02-28T01:00:00.000Z');
    expect(iso(occurrenceAt(w, at('2026-03-01T00:00:00Z'))?.start)).toBe('2026-03-31T01:00:00.000Z');
    expect(iso(occurrenceAt(w, at('2028-02-01T00:00:00Z'))?.start)).toBe('2028-02-29T01:00:00.000Z');
  });

  it('reads a one-off window in its timezone and has none once it ended', () => {
    const w: WindowRule = {
      timezone: 'Asia/Kolkata',
      schedule: { kind: 'one_off', starts_at: '2026-07-01T09:00', ends_at: '2026-07-01T12:30' },
    };
    const o = occurrenceAt(w, at('2026-06-01T00:00:00Z'));
    expect(iso(o?.start)).toBe('2026-07-01T03:30:00.000Z');
    expect(iso(o?.end)).toBe('2026-07-01T07:00:00.000Z');
    expect(occurrenceAt(w, at('2026-07-01T07:00:00Z'))).toBeNull();
  });
});

describe('isInside and nextWindow', () => {
  const nights = weekly('UTC', [1, 2, 3, 4, 5], '01:00', 120);
  const sunday = weekly('UTC', [7], '12:00', 60);

  it('lets a device without windows run at any time', () => {
    expect(isInside([], at('2026-06-10T12:00:00Z'))).toBe(true);
    expect(nextWindow([], at('2026-06-10T12:00:00Z'))).toBeNull();
  });

  it('is inside when any window is open', () => {
    expect(isInside([nights, sunday], at('2026-06-14T12:30:00Z'))).toBe(true); // Sunday noon
    expect(isInside([nights, sunday], at('2026-06-14T14:00:00Z'))).toBe(false);
  });

  it('names the soonest window, or the one under way', () => {
    expect(iso(nextWindow([nights, sunday], at('2026-06-13T09:00:00Z'))?.start)).toBe('2026-06-14T12:00:00.000Z');
    expect(iso(nextWindow([nights, sunday], at('2026-06-15T02:00:00Z'))?.start)).toBe('2026-06-15T01:00:00.000Z');
  });

  it('stays outside when every window has ended', () => {
    const past: WindowRule = {
      timezone: 'UTC',
      schedule: { kind: 'one_off', starts_at: '2026-01-01T00:00', ends_at: '2026-01-01T01:00' },
    };
    expect(isInside([past], at('2026-06-01T00:00:00Z'))).toBe(false);
    expect(nextWindow([past], at('2026-06-01T00:00:00Z'))).toBeNull();
  });
});

describe('ZMaintenanceWindowBody', () => {
  const base = { name: 'Nights', server_group_id: 1, timezone: 'Europe/Paris' };
  const messages = (input: unknown) => {
    const r = ZMaintenanceWindowBody.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('accepts a recurring window, and each day only once', () => {
    const schedule = { kind: 'weekly', days: [5, 1], start_time: '22:00', duration_minutes: 240 };
    expect(ZMaintenanceWindowBody.parse({ ...base, schedule }).schedule).toMatchObject({ days: [5, 1] });
    expect(messages({ ...base, schedule: { ...schedule, days: [5, 1, 5] } })).toContain(
      MAINTENANCE_WINDOW_TEXTS.daysTwice,
    );
  });

  it.each([
    [
      { kind: 'one_off', starts_at: '2026-07-01T10:00', ends_at: '2026-07-01T10:00' },
      MAINTENANCE_WINDOW_TEXTS.endAfterStart,
    ],
    [{ kind: 'one_off', starts_at: '2026-07-01T10:00', ends_at: '2026-07-08T10:01' }, MAINTENANCE_WINDOW_TEXTS.tooLong],
    [
      { kind: 'one_off', starts_at: '2026-02-30T10:00', ends_at: '2026-03-01T10:00' },
      MAINTENANCE_WINDOW_TEXTS.dateTime,
    ],
    [{ kind: 'weekly', days: [], start_time: '22:00', duration_minutes: 60 }, MAINTENANCE_WINDOW_TEXTS.days],
    [{ kind: 'weekly', days: [1], start_time: '24:00', duration_minutes: 60 }, MAINTENANCE_WINDOW_TEXTS.time],
    [{ kind: 'weekly', days: [1], start_time: '22:00', duration_minutes: 0 }, MAINTENANCE_WINDOW_TEXTS.duration],
    [
      { kind: 'monthly', day_of_month: 1, start_time: '22:00', duration_minutes: 10081 },
      MAINTENANCE_WINDOW_TEXTS.duration,
    ],
    [
      { kind: 'monthly', day_of_month: 32, start_time: '22:00', duration_minutes: 60 },
      MAINTENANCE_WINDOW_TEXTS.dayOfMonth,
    ],
  ])('refuses %j', (schedule, message) => {
    expect(messages({ ...base, schedule })).toContain(message);
  });

  it('refuses an unknown timezone', () => {
    const schedule = { kind: 'weekly', days: [1], start_time: '22:00', duration_minutes: 60 };
    expect(messages({ ...base, timezone: 'Mars/Olympus', schedule })).toContain(MAINTENANCE_WINDOW_TEXTS.timezone);
  });
});
