import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_EXTRA } from './constants';

/** Zero-based paging of console lists (spec A section 9). */
export const ZPaging = z.object({
  /** Zero-based page number. Default 0. */
  page: z.coerce.number().int().min(0).default(0),
  /**
   * Rows per page, 1 to 700. Default 25. The console offers 10 to 500; 700 is the further limit
   * the spec names (B section 9), so a list asked for 700 rows answers them rather than a 400.
   */
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_EXTRA).default(PAGE_SIZE_DEFAULT),
});
export type Paging = z.infer<typeof ZPaging>;
