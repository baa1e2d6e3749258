import { z } from 'zod';

/**
 * One occurrence of a maintenance window: absolute instants. Apart from the windows' schema,
 * since a device carries its next window: the devices list then loads no schedule rules.
 */
export const ZWindowOccurrence = z.object({
  starts_at: z.string(),
  ends_at: z.string(),
});
export type WindowOccurrence = z.infer<typeof ZWindowOccurrence>;
