import { z } from 'zod';
import { ZPaging } from '../paging.schema';
import { ZPolicyResultStatus } from './policy-runs.schema';

/**
 * Queries and path parameters of the runs, results, approvals and clone-job routes
 * (docs/api/policies-contract.md); their answers' schemas are in policy-responses.schema.ts.
 */

const zoneFields = {
  /** The zone. */
  o: z.coerce.number().int().positive().optional(),
  /** Alias of `o`. */
  org: z.coerce.number().int().positive().optional(),
};

/** `{id}` and `{runId}` path parameters. */
export const ZRunParams = z.object({
  id: z.coerce.number().int().positive(),
  runId: z.coerce.number().int().positive(),
});

export const ZPagedZoneQuery = z
  .object({ ...zoneFields, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const ZResultsQuery = z
  .object({ ...zoneFields, ...ZPaging.shape, status: ZPolicyResultStatus.optional() })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

/** `{id}` of an approval. */
export const ZApprovalIdParams = z.object({ id: z.coerce.number().int().positive() });

/** `{jobId}` of a clone job (a uuid; anything else is simply not found). */
export const ZCloneJobParams = z.object({ jobId: z.string().min(1).max(100) });
