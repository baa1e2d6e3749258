import type { Db } from '../../db/client';
import { activityLog } from '../../db/policies.schema';
import type { Tx } from '../commands/commands.store';

/** The only SQL that writes `activity_log`. */

export type ActivityEntry = {
  organizationId: number;
  userId: number | null;
  via: string;
  action: string;
  objectType: string;
  objectId: string | null;
  details?: Record<string, unknown>;
  createdAt: Date;
};

export async function insertActivity(exec: Db | Tx, entry: ActivityEntry): Promise<void> {
  await exec.insert(activityLog).values({ ...entry, details: entry.details ?? {} });
}
