import type { PolicyType } from '@patchwell/core/policies/policies.schema';
import type { Resource } from '@patchwell/core/zones/permissions';

/**
 * The policies feature's own console facts. Every answer's schema is core's
 * (`@patchwell/core/policies/policy-responses.schema`), imported where used.
 */

/** The permission resource of each policy type (spec B section 6). */
export const POLICY_RESOURCE: Record<PolicyType, Resource> = {
  patch: 'PatchPolicy',
  custom: 'CustomPolicy',
  required_software: 'RequiredSoftwarePolicy',
};
