/** Billing periods: calendar months in UTC, written as YYYY-MM-DD days. */

/** The UTC day of `at`, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
  const at = new Date(`${day}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return dayOf(at);
}

/** The period (calendar month, UTC) holding `at` or the day `at`: its first and last day. */
export function periodOf(at: Date | string): { start: string; end: string } {
  const d = typeof at === 'string' ? new Date(`${at}T00:00:00.000Z`) : at;
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const next = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return { start: dayOf(start), end: addDays(dayOf(next), -1) };
}
