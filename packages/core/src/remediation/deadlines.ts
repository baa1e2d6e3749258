import type { RemediationDeadlines } from './cves.schema';
import type { RemediationSeverity } from './scanners.schema';

/**
 * Remediation deadlines (issue 11): a zone gives each severity a number of days to fix a CVE
 * on a device, counted from the first time a scanner reported it there. Pure, so the CVE view,
 * the tasks and the console compute the same due dates; the server's SQL mirrors
 * {@link deadlineDays} and {@link dueAt} (whole days of 24 hours, not calendar days in a zone).
 */

const DAY_MS = 86_400_000;

/** Days the zone gives `severity`; null when it sets none (and always for `none`). */
export function deadlineDays(severity: RemediationSeverity, deadlines: RemediationDeadlines): number | null {
  return severity === 'none' ? null : deadlines[severity];
}

/** When a CVE first seen at `firstSeen` with `severity` must be fixed; null without a deadline. */
export function dueAt(firstSeen: Date, severity: RemediationSeverity, deadlines: RemediationDeadlines): Date | null {
  const days = deadlineDays(severity, deadlines);
  return days === null ? null : new Date(firstSeen.getTime() + days * DAY_MS);
}

/**
 * Whether a device still affected by a CVE is past its due date at `now`. The caller says
 * whether it is still affected (open, remediating or failed, and not excepted): a remediated
 * or excepted device is never overdue. Due at exactly `now` is not yet overdue.
 */
export function isOverdue(due: Date | null, now: Date, isAffected = true): boolean {
  return isAffected && due !== null && now.getTime() > due.getTime();
}
