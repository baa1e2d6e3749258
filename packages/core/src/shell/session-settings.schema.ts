import { z } from 'zod';
import {
  SESSION_IDLE_MAX_MINUTES,
  SESSION_IDLE_MIN_MINUTES,
  SESSION_LIFETIME_MAX_MINUTES,
  SESSION_LIFETIME_MIN_MINUTES,
} from '../constants';

/** Session bounds of a zone, in minutes (the console edits them as hours and minutes). */
export const ZSessionSettings = z.object({
  max_lifetime_minutes: z
    .number()
    .int()
    .min(SESSION_LIFETIME_MIN_MINUTES, 'Maximum session lifetime must be at least 30 minutes.')
    .max(SESSION_LIFETIME_MAX_MINUTES, 'Maximum session lifetime must be at most 2160 hours.'),
  idle_timeout_minutes: z
    .number()
    .int()
    .min(SESSION_IDLE_MIN_MINUTES, 'Idle timeout must be at least 30 minutes.')
    .max(SESSION_IDLE_MAX_MINUTES, 'Idle timeout must be at most 720 hours.'),
});
export type SessionSettings = z.infer<typeof ZSessionSettings>;
