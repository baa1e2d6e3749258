import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REMEDIATION_DEADLINES_DEFAULT, type RemediationDeadlines } from './cves.schema';
import { deadlineDays, dueAt, isOverdue } from './deadlines';
import { REMEDIATION_SEVERITIES } from './scanners.schema';

const DAY = 86_400_000;
const FIRST_SEEN = new Date('2026-03-02T09:00:00Z');

const days = fc.option(fc.integer({ min: 1, max: 365 }), { nil: null });
const deadlines: fc.Arbitrary<RemediationDeadlines> = fc.record({
  critical: days,
  high: days,
  medium: days,
  low: days,
});
const severity = fc.constantFrom(...REMEDIATION_SEVERITIES);
const instant = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('remediation deadlines', () => {
  it('gives the defaults: critical 15 days, high 30, medium 90, low and none without a deadline', () => {
    const d = REMEDIATION_DEADLINES_DEFAULT;
    expect(dueAt(FIRST_SEEN, 'critical', d)).toEqual(new Date('2026-03-17T09:00:00Z'));
    expect(dueAt(FIRST_SEEN, 'high', d)).toEqual(new Date('2026-04-01T09:00:00Z'));
    expect(dueAt(FIRST_SEEN, 'medium', d)).toEqual(new Date('2026-05-31T09:00:00Z'));
    expect(dueAt(FIRST_SEEN, 'low', d)).toBeNull();
    expect(dueAt(FIRST_SEEN, 'none', d)).toBeNull();
  });

  it('is overdue only after the due instant, and only while affected', () => {
    const due = dueAt(FIRST_SEEN, 'critical', REMEDIATION_DEADLINES_DEFAULT)!;
    expect(isOverdue(due, due)).toBe(false);
    expect(isOverdue(due, new Date(due.getTime() + 1))).toBe(true);
    expect(isOverdue(due, new Date(due.getTime() + 1), false)).toBe(false);
    expect(isOverdue(null, new Date('2100-01-01T00:00:00Z'))).toBe(false);
  });

  it('due is first seen plus whole days of the severity, or null exactly when the zone sets none', () => {
    fc.assert(
      fc.property(instant, severity, deadlines, (seen, sev, d) => {
        const due = dueAt(seen, sev, d);
        const n = deadlineDays(sev, d);
        if (n === null) return due === null;
        return due !== null && due.getTime() - seen.getTime() === n * DAY;
      }),
    );
  });

  it('a longer deadline never makes a device overdue sooner', () => {
    fc.assert(
      fc.property(
        instant,
        instant,
        severity,
        deadlines,
        fc.integer({ min: 1, max: 30 }),
        (seen, now, sev, d, extra) => {
          if (sev === 'none' || d[sev] === null) return true;
          const longer = { ...d, [sev]: Math.min(365, d[sev] + extra) };
          return !isOverdue(dueAt(seen, sev, longer), now) || isOverdue(dueAt(seen, sev, d), now);
        },
      ),
    );
  });
});
