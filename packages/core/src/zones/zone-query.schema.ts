import { z } from 'zod';
import { ID_MAX } from '../constants';

/** The zone every page and zone-scoped call carries: `o` (alias `org`), an integer. */
export const ZZoneQuery = z
  .object({
    o: z.coerce.number().int().positive().max(ID_MAX).optional(),
    org: z.coerce.number().int().positive().max(ID_MAX).optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type ZoneQuery = z.infer<typeof ZZoneQuery>;
