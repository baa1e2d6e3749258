import { z } from 'zod';
import { ID_MAX } from '@patchwell/core/constants';

/** A positive integer id taken from a URL segment. */
export const ZIdParam = z.coerce.number().int().positive().max(ID_MAX);

/** Path params of `/…/:id` routes. */
export const ZIdParams = z.object({ id: ZIdParam });

/** Path params of `/api/accounts/:accountId/…` routes. */
export const ZAccountParams = z.object({ accountId: ZIdParam });
