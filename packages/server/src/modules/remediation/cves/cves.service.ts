import { setRemediationStatus, upsertStatesFromBatch, type Exec } from './cves.store';

/**
 * The zone's CVE view: which devices each reported CVE affects and where each stands. Its
 * states change when a batch is accepted (the scanner's word becomes the zone's) and when a
 * remediation job starts or finishes; the view, exceptions and deadlines read them.
 */

/** An accepted batch's findings open their devices' CVE states (in the acceptance's transaction). */
export function recordAcceptedBatch(tx: Exec, input: { zoneId: number; batchId: number; at: Date }): Promise<void> {
  return upsertStatesFromBatch(tx, input.zoneId, input.batchId, input.at);
}

/** A remediation job for these CVEs on a device started, succeeded or failed. */
export function recordRemediationOutcome(
  exec: Exec,
  input: {
    zoneId: number;
    deviceId: number;
    cves: string[];
    outcome: 'remediating' | 'remediated' | 'remediation_failed';
    taskId: number;
    at: Date;
  },
): Promise<void> {
  return setRemediationStatus(exec, {
    zoneId: input.zoneId,
    deviceId: input.deviceId,
    cves: input.cves,
    status: input.outcome,
    cause: `task:${input.taskId}`,
    at: input.at,
  });
}
