import { z } from 'zod';

export const BANNER_TYPES = ['danger', 'warning', 'maintenance', 'info', 'thirdparty'] as const;

/** A server alert banner (spec A section 3). */
export const ZBanner = z.object({
  id: z.number().int(),
  message: z.string(),
  messagetype: z.enum(BANNER_TYPES),
});
export type Banner = z.infer<typeof ZBanner>;
export const ZBannerList = z.array(ZBanner);
