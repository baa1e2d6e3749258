import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { ZPolicyStatus, ZPolicyType } from '../policies/policies.schema';

/**
 * Policy results (spec B sections 2 and 9): the zone's policies that ran in the last 30
 * days, with their runs and the runs' outcomes on devices. A run's own list and its
 * per-device results are the policies API's (`GET /api/policies/{id}/runs…`).
 */

/** Policy results cover the runs of the last 30 days (spec B section 9). */
export const POLICY_RESULTS_DAYS = 30;

const id = z.coerce.number().int().positive().max(ID_MAX);

export const POLICY_RESULTS_SORT_FIELDS = ['name', 'last_run_at', 'runs', 'failed'] as const;

/** `GET /api/reports/policy-results?o&page&limit&search&sort`. */
export const ZPolicyResultsQuery = z
  .object({
    o: id.optional(),
    org: id.optional(),
    ...ZPaging.shape,
    /** Substring of the policy's name. */
    search: z.string().trim().max(200).optional(),
    /** `field:asc|desc`, field one of name, last_run_at, runs, failed. Default `last_run_at:desc`. */
    sort: z
      .string()
      .regex(new RegExp(`^(${POLICY_RESULTS_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
      .optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type PolicyResultsQuery = z.infer<typeof ZPolicyResultsQuery>;

/** `{policyUuid}` of `GET /api/reports/policy-results/{policyUuid}`. */
export const ZPolicyResultsParams = z.object({ policyUuid: z.uuid('Must be a policy UUID.') });

/** A policy's runs of the last 30 days and their device results, counted. */
export const ZPolicyResultsRow = z.object({
  policy_id: z.number().int(),
  policy_uuid: z.string(),
  name: z.string(),
  policy_type_name: ZPolicyType,
  status: ZPolicyStatus,
  /** Runs started in the period. */
  runs: z.number().int(),
  /** Start of its latest run (ISO 8601); null when it did not run in the period. */
  last_run_at: z.string().nullable(),
  /** Distinct devices the runs had results on. */
  devices: z.number().int(),
  /** Device results: succeeded. */
  success: z.number().int(),
  /** Device results: failed or timed out. */
  failed: z.number().int(),
  /** Device results: waiting or running. */
  pending: z.number().int(),
  /** Device results: canceled. */
  canceled: z.number().int(),
});
export type PolicyResultsRow = z.infer<typeof ZPolicyResultsRow>;

export const ZPolicyResultsList = z.object({
  /** Start of the period (ISO 8601): 30 days before now. */
  since: z.string(),
  data: z.array(ZPolicyResultsRow),
  size: z.number().int(),
});
export type PolicyResultsList = z.infer<typeof ZPolicyResultsList>;

/** 200 answer of `GET /api/reports/policy-results/{policyUuid}`. */
export const ZPolicyResultsDetail = z.object({
  since: z.string(),
  policy: ZPolicyResultsRow,
});
export type PolicyResultsDetail = z.infer<typeof ZPolicyResultsDetail>;
