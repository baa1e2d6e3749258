import { eq } from 'drizzle-orm';
import type { RemediationDeadlines } from '@patchwell/core/remediation/cves.schema';
import type { Db } from '../../../db/client';
import { remediationDeadlines } from '../../../db/remediation.schema';
import type { Exec } from './cves.store';

/** The only SQL that writes `remediation_deadlines`: a zone's days to remediate by severity. */

/** The zone's row; null when it never set its own (the defaults apply). */
export async function findDeadlines(exec: Exec | Db, zoneId: number): Promise<RemediationDeadlines | null> {
  const [row] = await exec
    .select()
    .from(remediationDeadlines)
    .where(eq(remediationDeadlines.organizationId, zoneId))
    .limit(1);
  if (!row) return null;
  return { critical: row.criticalDays, high: row.highDays, medium: row.mediumDays, low: row.lowDays };
}

export async function upsertDeadlines(
  exec: Exec,
  zoneId: number,
  deadlines: RemediationDeadlines,
  userId: number | null,
  at: Date,
): Promise<void> {
  const values = {
    criticalDays: deadlines.critical,
    highDays: deadlines.high,
    mediumDays: deadlines.medium,
    lowDays: deadlines.low,
    updatedBy: userId,
    updatedAt: at,
  };
  await exec
    .insert(remediationDeadlines)
    .values({ organizationId: zoneId, ...values })
    .onConflictDoUpdate({ target: remediationDeadlines.organizationId, set: values });
}
