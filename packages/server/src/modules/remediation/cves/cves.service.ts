import { setRemediationStatus, setRemediationStatusOfDevices, upsertStatesFromBatch, type Exec } from './cves.store';

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

/**
 * {@link recordRemediationOutcome} for many devices of one task in one statement: executing
 * it (`remediating`), the sweep's timeouts (`remediation_failed`), and cancelling it (`open`:
 * states the task left `remediating` are open again; others stay as they are).
 */
export function recordRemediationOutcomes(
  exec: Exec,
  input: {
    zoneId: number;
    deviceIds: number[];
    cves: string[];
    outcome: 'open' | 'remediating' | 'remediated' | 'remediation_failed';
    taskId: number;
    at: Date;
  },
): Promise<void> {
  return setRemediationStatusOfDevices(exec, {
    zoneId: input.zoneId,
    deviceIds: input.deviceIds,
    cves: input.cves,
    status: input.outcome,
    cause: `task:${input.taskId}`,
    at: input.at,
  });
}
