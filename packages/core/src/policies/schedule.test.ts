import { tzScan } from '@date-fns/tz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVERY_DAY, EVERY_MONTH, EVERY_WEEK, dayBit, maskOfOrdinals } from './policy-schedule.schema';
import { isDue, missedRuns, nextRun, policyScheduleTz, type Schedule } from './schedule';
import { SCHEDULE_TIMEZONES } from './timezones';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

// ---- The reference: walk time minute by minute, reading the wall clock from Intl. ----

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClock(tz: string, ms: number): number {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
}

const offsetCache = new Map<string, Map<number, number>>();
function exactOffset(tz: string, ms: number): number {
  let cache = offsetCache.get(tz);
  if (!cache) offsetCache.set(tz, (cache = new Map()));
  let o = cache.get(ms);
  if (o === undefined) {
    o = (wallClock(tz, ms) - ms) / MIN;
    cache.set(ms, o);
  }
  return o;
}
/**
 * Minutes east of UTC at a whole-minute instant; "UTC±HHMM" options are read from the text.
 * A day (then an hour) whose two ends agree holds no transition: tzdata never has two
 * within a day, so only the minutes around a change are asked one by one.
 */
function refOffset(tz: string, ms: number): number {
  if (tz.startsWith('UTC') && tz.length === 8) {
    const sign = tz[3] === '-' ? -1 : 1;
    return sign * (Number(tz.slice(4, 6)) * 60 + Number(tz.slice(6, 8)));
  }
  for (const unit of [DAY, HOUR]) {
    const start = Math.floor(ms / unit) * unit;
    const o = exactOffset(tz, start);
    if (o === exactOffset(tz, start + unit)) return o;
  }
  return exactOffset(tz, ms);
}

function refMatches(s: Schedule, dayNo: number): boolean {
  const d = new Date(dayNo * DAY);
  const weekday = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
  const weeks = s.schedule_weeks_of_month || EVERY_WEEK;
  const months = s.schedule_months || EVERY_MONTH;
  return (
    (s.schedule_days & (1 << weekday)) !== 0 &&
    (weeks & (1 << Math.ceil(d.getUTCDate() / 7))) !== 0 &&
    (months & (1 << (d.getUTCMonth() + 1))) !== 0
  );
}

/**
 * The first instant after `after` whose local date is a run day and which is the first
 * instant of that date at or past the run time; 'beyond' when none within `windowDays`.
 */
function referenceNextRun(s: Schedule, after: number, tz: string, windowDays: number): number | 'beyond' {
  const [hh, mm] = s.schedule_time.split(':').map(Number) as [number, number];
  const target = hh * 60 + mm;
  const reached = new Set<number>();
  const end = after + windowDays * DAY;
  for (let hour = Math.floor((after - 2 * DAY) / HOUR) * HOUR; hour <= end; hour += HOUR) {
    // Offsets only change at transitions, never twice within an hour.
    const offset = refOffset(tz, hour);
    const steady = offset === refOffset(tz, hour + HOUR);
    if (steady) {
      // The wall clock runs evenly through this hour: skip it when it stays in one day
      // that has already reached the time, or never gets to it.
      const first = hour + offset * MIN;
      const last = first + HOUR - MIN;
      const dayNo = Math.floor(first / DAY);
      const quiet = Math.floor(last / DAY) === dayNo && (reached.has(dayNo) || (last - dayNo * DAY) / MIN < target);
      if (quiet) continue;
    }
    for (let t = hour; t < hour + HOUR; t += MIN) {
      const wall = t + (steady ? offset : refOffset(tz, t)) * MIN;
      const dayNo = Math.floor(wall / DAY);
      if ((wall - dayNo * DAY) / MIN < target || reached.has(dayNo)) continue;
      reached.add(dayNo);
      if (t > after && refMatches(s, dayNo)) return t;
    }
  }
  return 'beyond';
}

// ---- Generators ----

const DST_ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'];
const RANGE = { start: Date.UTC(2025, 0, 1), end: Date.UTC(2026, 11, 31) };
const transitionsOf = (tz: string) =>
  tzScan(tz, { start: new Date(RANGE.start), end: new Date(RANGE.end) }).map((c) => c.date.getTime());
const transitions = DST_ZONES.flatMap(transitionsOf);

const arbSchedule: fc.Arbitrary<Schedule> = fc.record({
  schedule_days: fc.oneof(
    fc.constant(EVERY_DAY),
    fc.integer({ min: 1, max: 127 }).map((v) => v << 1),
  ),
  schedule_weeks_of_month: fc.oneof(
    fc.constant(0),
    fc.integer({ min: 1, max: 31 }).map((v) => v << 1),
  ),
  schedule_months: fc.oneof(
    fc.constant(EVERY_MONTH),
    fc.integer({ min: 1, max: 4095 }).map((v) => v << 1),
  ),
  schedule_time: fc
    .tuple(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 23 })), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
});
const arbAfter = fc.oneof(
  fc.integer({ min: RANGE.start, max: RANGE.end }),
  fc.tuple(fc.constantFrom(...transitions), fc.integer({ min: -4 * DAY, max: DAY })).map(([t, d]) => t + d),
);

const WINDOW_DAYS = 370;

function agreesWithReference(s: Schedule, after: number, tz: string): void {
  const actual = nextRun(s, new Date(after), tz);
  const expected = referenceNextRun(s, after, tz, WINDOW_DAYS);
  if (expected === 'beyond') {
    if (actual) expect(actual.getTime()).toBeGreaterThan(after + WINDOW_DAYS * DAY);
  } else {
    expect(actual?.toISOString()).toBe(new Date(expected).toISOString());
  }
}

describe('nextRun against a minute-by-minute reference', () => {
  it.each(DST_ZONES)('agrees in %s, DST changes included (property)', (tz) => {
    fc.assert(
      fc.property(arbSchedule, arbAfter, (s, after) => agreesWithReference(s, after, tz)),
      { numRuns: 60 },
    );
  });

  it('agrees in the fixed "UTC±HHMM" options (property)', () => {
    fc.assert(
      fc.property(arbSchedule, arbAfter, fc.constantFrom(...SCHEDULE_TIMEZONES), (s, after, tz) =>
        agreesWithReference(s, after, tz),
      ),
      { numRuns: 60 },
    );
  });
});

describe('nextRun on DST change days', () => {
  // Every day, at a time near the 02:00/03:00 changes, from within a day before a change:
  // most cases land on the gap or the overlap itself.
  const arbNearChange = fc.record({
    schedule_days: fc.constant(EVERY_DAY),
    schedule_time: fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `0${h}:${String(m).padStart(2, '0')}`),
  });
  it.each(['America/New_York', 'Europe/Berlin', 'Australia/Sydney'])('agrees in %s (property)', (tz) => {
    const changes = transitionsOf(tz);
    expect(changes.length).toBeGreaterThanOrEqual(4);
    fc.assert(
      fc.property(arbNearChange, fc.constantFrom(...changes), fc.integer({ min: 0, max: DAY }), (s, change, back) =>
        agreesWithReference(s, change - back, tz),
      ),
      { numRuns: 40 },
    );
  });
});

describe('nextRun', () => {
  const at = (iso: string) => new Date(iso);
  const base = { schedule_weeks_of_month: EVERY_WEEK, schedule_months: EVERY_MONTH };

  it('runs the 2nd Saturday at 02:00 for days 64, weeks 4, months 8190', () => {
    const s = { schedule_days: 64, schedule_weeks_of_month: 4, schedule_months: 8190, schedule_time: '02:00' };
    // November 2026 starts on a Sunday: its Saturdays are the 7th and the 14th.
    expect(nextRun(s, at('2026-11-01T00:00:00Z'), 'UTC+0000')?.toISOString()).toBe('2026-11-14T02:00:00.000Z');
    expect(nextRun(s, at('2026-11-14T02:00:00Z'), 'UTC+0000')?.toISOString()).toBe('2026-12-12T02:00:00.000Z');
  });

  it('runs every day at the time, strictly after the given instant', () => {
    const s = { ...base, schedule_days: EVERY_DAY, schedule_time: '09:00' };
    expect(nextRun(s, at('2026-06-01T03:29:00Z'), 'Asia/Kolkata')?.toISOString()).toBe('2026-06-01T03:30:00.000Z');
    expect(nextRun(s, at('2026-06-01T03:30:00Z'), 'Asia/Kolkata')?.toISOString()).toBe('2026-06-02T03:30:00.000Z');
    expect(nextRun(s, at('2026-06-01T00:00:00Z'), 'UTC+0530')?.toISOString()).toBe('2026-06-01T03:30:00.000Z');
  });

  it('runs a time skipped by spring-forward at the first valid instant after it', () => {
    const s = { ...base, schedule_days: EVERY_DAY, schedule_time: '02:30' };
    // New York, 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00Z).
    expect(nextRun(s, at('2026-03-07T12:00:00Z'), 'America/New_York')?.toISOString()).toBe('2026-03-08T07:00:00.000Z');
    // Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00Z).
    expect(nextRun(s, at('2026-03-28T12:00:00Z'), 'Europe/Berlin')?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('runs a time repeated by fall-back once, at its first occurrence', () => {
    const s = { ...base, schedule_days: EVERY_DAY, schedule_time: '01:30' };
    // New York, 2026-11-01: 01:00–01:59 happens in EDT, then again in EST.
    const first = nextRun(s, at('2026-10-31T12:00:00Z'), 'America/New_York');
    expect(first?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(nextRun(s, first!, 'America/New_York')?.toISOString()).toBe('2026-11-02T06:30:00.000Z');
    // Sydney, 2026-04-05: 02:00–02:59 repeats; 02:30 AEDT is 15:30Z the day before.
    const sydney = { ...s, schedule_time: '02:30' };
    expect(nextRun(sydney, at('2026-04-04T00:00:00Z'), 'Australia/Sydney')?.toISOString()).toBe(
      '2026-04-04T15:30:00.000Z',
    );
  });

  it('is null when unscheduled (days 0)', () => {
    expect(nextRun({ ...base, schedule_days: 0, schedule_time: '02:00' }, at('2026-01-01T00:00:00Z'), 'UTC')).toBe(
      null,
    );
  });

  it('reads months bit n as month n (4680 = March, June, September, December)', () => {
    const s = {
      schedule_days: dayBit('monday'),
      schedule_weeks_of_month: 2,
      schedule_months: 4680,
      schedule_time: '10:00',
    };
    expect(nextRun(s, at('2026-01-01T00:00:00Z'), 'UTC+0000')?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    expect(nextRun(s, at('2026-03-02T10:00:00Z'), 'UTC+0000')?.toISOString()).toBe('2026-06-01T10:00:00.000Z');
  });

  it('finds a rare pattern decades ahead (5th Saturday of February)', () => {
    const s = {
      schedule_days: dayBit('saturday'),
      schedule_weeks_of_month: maskOfOrdinals([5]),
      schedule_months: maskOfOrdinals([2]),
      schedule_time: '00:00',
    };
    expect(nextRun(s, at('2026-01-01T00:00:00Z'), 'UTC+0000')?.toISOString()).toBe('2048-02-29T00:00:00.000Z');
  });

  it("uses the device's zone, or UTC when the device reports none", () => {
    const s = { ...base, schedule_days: EVERY_DAY, schedule_time: '12:00' };
    const after = at('2026-07-01T00:00:00Z');
    expect(nextRun(s, after, { deviceTz: 'Europe/Berlin' })?.toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(nextRun(s, after, { deviceTz: null })?.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(nextRun(s, after, { deviceTz: 'Not/AZone' })?.toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(() => nextRun(s, after, 'Not/AZone')).toThrow(RangeError);
  });

  it('picks the zone from the policy', () => {
    expect(policyScheduleTz({ use_scheduled_timezone: true, scheduled_timezone: 'UTC-0330' }, 'Asia/Tokyo')).toBe(
      'UTC-0330',
    );
    expect(policyScheduleTz({ use_scheduled_timezone: false, scheduled_timezone: 'UTC-0330' }, 'Asia/Tokyo')).toEqual({
      deviceTz: 'Asia/Tokyo',
    });
  });
});

describe('missedRuns and isDue', () => {
  const s = { schedule_days: dayBit('monday') | dayBit('thursday'), schedule_time: '06:00' };

  it('lists the runs owed since the last one, oldest first', () => {
    // 2026-11-02 is a Monday.
    const runs = missedRuns(s, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-12T06:00:00Z'), 'UTC+0000');
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-11-02T06:00:00.000Z',
      '2026-11-05T06:00:00.000Z',
      '2026-11-09T06:00:00.000Z',
      '2026-11-12T06:00:00.000Z',
    ]);
    expect(missedRuns(s, new Date('2026-11-01T00:00:00Z'), new Date('2027-11-01T00:00:00Z'), 'UTC', 3)).toHaveLength(3);
  });

  it('is due once the next run time has passed, and not before', () => {
    const since = new Date('2026-11-02T06:00:00Z');
    expect(isDue(s, since, new Date('2026-11-05T05:59:59Z'), 'UTC+0000')).toBe(false);
    expect(isDue(s, since, new Date('2026-11-05T06:00:00Z'), 'UTC+0000')).toBe(true);
    expect(isDue({ ...s, schedule_days: 0 }, since, new Date('2030-01-01T00:00:00Z'), 'UTC+0000')).toBe(false);
  });
});
