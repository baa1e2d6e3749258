import { remediationTasks } from '../../../db/remediation.schema';
import { call } from '../../../test/authz-helpers';
import { t, z, o, ids, strings, admin, q, multipart, inZone, type Case } from './context';

/** Remediation: tasks, batches, CVE exceptions, deadlines. */
export const remediationCases: Record<string, Case> = {
  'PATCH /api/orgs/{orgId}/tasks/{taskId}': {
    run: () => call(t, { cookie: z.cookie }, 'PATCH', q(`/api/orgs/${o}/tasks/${ids.task}`), { action: 'cancel' }),
    action: 'task.cancel',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/execute': {
    run: async () => {
      const [task] = await t.db
        .insert(remediationTasks)
        .values({
          organizationId: o,
          kind: 'patch-now',
          title: 'Coverage bulk task',
          patchName: 'curl',
          cves: ['CVE-2026-0002'],
          severity: 'high',
          source: 'qualys',
          createdAt: t.clock.now(),
          updatedAt: t.clock.now(),
        })
        .returning();
      return call(t, { cookie: z.cookie }, 'POST', q(`/api/orgs/${o}/tasks/execute`), { ids: [task!.id] });
    },
    action: 'task.execute',
    zone: inZone,
  },
  'DELETE /api/orgs/{orgId}/tasks': {
    run: () => call(t, { cookie: z.cookie }, 'DELETE', q(`/api/orgs/${o}/tasks`), { ids: [ids.task] }),
    action: 'task.delete',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/{type}/batches/upload': {
    run: () =>
      multipart(
        q(`/api/orgs/${o}/tasks/patch/batches/upload?source=generic`),
        'scan.csv',
        'Hostname,IP,CVE ID,Severity\r\naudited-1,10.0.0.1,CVE-2024-3094,Critical\r\n',
      ),
    action: 'batch.upload',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/batches/{batchId}/accept': {
    run: () => admin().post(q(`/api/orgs/${o}/tasks/batches/${ids.readyBatch}/accept`), {}),
    action: 'batch.accept',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/tasks/batches/{batchId}/reject': {
    run: () => admin().post(q(`/api/orgs/${o}/tasks/batches/${ids.rejectBatch}/reject`), {}),
    action: 'batch.reject',
    zone: inZone,
  },
  'DELETE /api/orgs/{orgId}/cve-exceptions/{exceptionId}': {
    run: () => admin().del(q(`/api/orgs/${o}/cve-exceptions/${ids.cveException}`)),
    action: 'cve_exception.revoke',
    zone: inZone,
  },
  'POST /api/orgs/{orgId}/cves/{cve}/exceptions': {
    run: () =>
      admin().post(q(`/api/orgs/${o}/cves/${strings.cve}/exceptions`), {
        kind: 'false_positive',
        reason: 'The scanner misreads the backported fix.',
      }),
    action: 'cve_exception.create',
    zone: inZone,
  },
  'PUT /api/orgs/{orgId}/remediation-deadlines': {
    run: () =>
      admin().put(q(`/api/orgs/${o}/remediation-deadlines`), { critical: 10, high: 30, medium: 90, low: null }),
    action: 'remediation_deadlines.update',
    zone: inZone,
  },
};
