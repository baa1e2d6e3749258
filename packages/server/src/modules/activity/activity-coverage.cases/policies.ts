import { policyApprovals } from '../../../db/policies.schema';
import { t, o, ids, strings, admin, q, multipart, policyBody, inZone, type Case } from './context';

/** Policies and their approvals. */
export const policyCases: Record<string, Case> = {
  'POST /api/policies': {
    run: async () => {
      const res = await admin().post(q('/api/policies'), policyBody('Coverage policy'));
      ids.policy = res.body?.id;
      return res;
    },
    action: 'policy.create',
    zone: inZone,
  },
  'PUT /api/policies/{id}': {
    run: () => admin().put(q(`/api/policies/${ids.policy}`), policyBody('Coverage policy renamed')),
    action: 'policy.update',
    zone: inZone,
  },
  'POST /api/policies/{id}/action': {
    run: () => admin().post(q(`/api/policies/${ids.policy}/action`), { action: 'remediateAll' }),
    action: 'policy.remediateAll',
    zone: inZone,
  },
  'POST /api/policies/{id}/clone': {
    run: () => admin().post(q(`/api/policies/${ids.policy}/clone`), {}),
    action: 'policy.clone',
    zone: inZone,
  },
  'PUT /api/approvals/{id}': {
    run: async () => {
      const [row] = await t.db
        .insert(policyApprovals)
        .values({
          organizationId: o,
          policyId: ids.policy!,
          patchName: 'openssl',
          patchVersion: '3.0.2',
          createdAt: t.clock.now(),
        })
        .returning();
      return admin().put(q(`/api/approvals/${row!.id}`), { manual_approval: true });
    },
    action: 'approval.approved',
    zone: inZone,
  },
  'DELETE /api/policies/{id}': {
    run: () => admin().del(q(`/api/policies/${ids.policy}`)),
    action: 'policy.delete',
    zone: inZone,
  },
};

/** Installers (custom software for policies). */
export const installerCases: Record<string, Case> = {
  'POST /api/policies/installers': {
    run: async () => {
      const res = await multipart(q('/api/policies/installers'), 'setup.sh', '#!/bin/sh\necho installed\n');
      strings.installer = res.body?.id;
      return res;
    },
    action: 'installer.upload',
    zone: inZone,
  },
  'DELETE /api/policies/installers/{id}': {
    run: () => admin().del(q(`/api/policies/installers/${strings.installer}`)),
    action: 'installer.delete',
    zone: inZone,
  },
};
