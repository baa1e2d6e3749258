/** Date, time and name rules shared by forms and the API (spec A section 5). */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const PATH_LIKE = /^[A-Za-z0-9._~-]+$/;

/** YYYY-MM-DD that names a real calendar day (no 2023-02-30). */
export function isValidDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** 24-hour HH:mm. */
export function isValidTime(value: string): boolean {
  return TIME.test(value);
}

/** Letters, digits, dot, underscore, tilde and hyphen only; no spaces. */
export function isPathLikeName(value: string): boolean {
  return PATH_LIKE.test(value);
}
