import { ZPolicy, ZCloneJob, type PolicyType } from '@patchwell/core/policies/policies.schema';
import { ZPolicyRunDetail as ZCorePolicyRunDetail } from '@patchwell/core/policies/policy-responses.schema';
import type { Resource } from '@patchwell/core/zones/permissions';
import { z } from 'zod';

/**
 * How the console reads a policy and a run. The other answers are core's
 * (`@patchwell/core/policies/policy-responses.schema`), imported where used.
 */

/** A policy with its devices' standing, as the list and single reads return it. */
export const ZPolicyWithCompliance = z.intersection(
  ZPolicy,
  z.object({
    compliance: z.object({ compliant: z.number().int(), non_compliant: z.number().int(), pending: z.number().int() }),
  }),
);
export type PolicyWithCompliance = z.infer<typeof ZPolicyWithCompliance>;
export const ZPolicyList = z.object({ data: z.array(ZPolicyWithCompliance), size: z.number().int() });

/**
 * A run as the console reads it: core's, with the status read as any text so a state the
 * console does not know shows as 'unrecognized' (spec B section 8), and an optional error code.
 */
export const ZPolicyRunDetail = ZCorePolicyRunDetail.extend({
  status: z.string(),
  /** An error code, when the server gives one (the banner's 'Error code: {error_code}'). */
  error_code: z.union([z.string(), z.number()]).nullable().optional(),
});
export type PolicyRunDetail = z.infer<typeof ZPolicyRunDetail>;
export const ZPolicyRunList = z.object({ data: z.array(ZPolicyRunDetail), size: z.number().int() });
export const ZPolicyActionResult = z.object({ run: ZPolicyRunDetail });

export { ZCloneJob };

/** The permission resource of each policy type (spec B section 6). */
export const POLICY_RESOURCE: Record<PolicyType, Resource> = {
  patch: 'PatchPolicy',
  custom: 'CustomPolicy',
  required_software: 'RequiredSoftwarePolicy',
};
