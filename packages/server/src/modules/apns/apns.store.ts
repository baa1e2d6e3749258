import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { apnsSettings } from '../../db/apns.schema';
import { users } from '../../db/schema';
import type { Exec } from '../commands/commands.store';

/** The only SQL that writes `apns_settings`. */

export type ApnsRow = typeof apnsSettings.$inferSelect;
export type ApnsRowWithNames = ApnsRow & { csrCreatedByEmail: string | null; uploadedByEmail: string | null };
type ApnsChanges = Partial<Omit<typeof apnsSettings.$inferInsert, 'organizationId'>> & { updatedAt: Date };

const csrBy = alias(users, 'csr_by');
const uploadedBy = alias(users, 'uploaded_by');

/** The zone's row with the emails of who made the request and who uploaded the certificate; `forUpdate` locks it. */
export async function findApns(exec: Exec, zoneId: number, forUpdate = false): Promise<ApnsRowWithNames | undefined> {
  const query = exec
    .select({ row: apnsSettings, csrCreatedByEmail: csrBy.email, uploadedByEmail: uploadedBy.email })
    .from(apnsSettings)
    .leftJoin(csrBy, eq(csrBy.id, apnsSettings.csrCreatedBy))
    .leftJoin(uploadedBy, eq(uploadedBy.id, apnsSettings.certificateUploadedBy))
    .where(eq(apnsSettings.organizationId, zoneId));
  const [found] = forUpdate ? await query.for('update', { of: apnsSettings }) : await query;
  return found && { ...found.row, csrCreatedByEmail: found.csrCreatedByEmail, uploadedByEmail: found.uploadedByEmail };
}

/** Inserts the zone's row or changes the given columns of it. */
export async function upsertApns(exec: Exec, zoneId: number, changes: ApnsChanges): Promise<void> {
  await exec
    .insert(apnsSettings)
    .values({ organizationId: zoneId, ...changes })
    .onConflictDoUpdate({ target: apnsSettings.organizationId, set: changes });
}

/** Removes the zone's request, certificate and keys; false when there was nothing. */
export async function deleteApns(exec: Exec, zoneId: number): Promise<boolean> {
  const gone = await exec
    .delete(apnsSettings)
    .where(eq(apnsSettings.organizationId, zoneId))
    .returning({ id: apnsSettings.organizationId });
  return gone.length > 0;
}
