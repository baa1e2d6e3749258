import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

/** Zero-based paging of console lists (spec A section 9). */
export const ZPaging = z.object({
  /** Zero-based page number. Default 0. */
  page: z.coerce.number().int().min(0).default(0),
  /** Rows per page, 1 to 500. Default 25. */
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type Paging = z.infer<typeof ZPaging>;
