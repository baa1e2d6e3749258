import { ZSessionSettings, type SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { TEXTS } from '@patchwell/core/texts';
import { z } from 'zod';

const MAX_LIFETIME_HOURS = 2160;
const MAX_IDLE_HOURS = 720;

/** A whole number between 0 and `max` typed in a text box ('' counts as 0). */
function part(max: number) {
  const message = TEXTS.validation.numberBetween(0, max);
  return z
    .string()
    .trim()
    .refine((v) => /^\d{0,6}$/.test(v), message)
    .transform((v) => (v === '' ? 0 : Number(v)))
    .refine((n) => n <= max, message);
}

/**
 * The session-expiration form (spec A sections 3 and 5): maximum lifetime and idle timeout,
 * each as hours and minutes. The totals are checked by the shared ZSessionSettings, whose
 * messages ('... at least 30 minutes.', '... at most 2160 hours.') appear under the hours.
 */
export const ZSessionTimeForm = z
  .object({
    lifetime_hours: part(MAX_LIFETIME_HOURS),
    lifetime_minutes: part(59),
    idle_hours: part(MAX_IDLE_HOURS),
    idle_minutes: part(59),
  })
  .transform((v, ctx) => {
    const totals = {
      max_lifetime_minutes: v.lifetime_hours * 60 + v.lifetime_minutes,
      idle_timeout_minutes: v.idle_hours * 60 + v.idle_minutes,
    };
    const result = ZSessionSettings.safeParse(totals);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const field = issue.path[0] === 'max_lifetime_minutes' ? 'lifetime_hours' : 'idle_hours';
      ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
    return z.NEVER;
  });
export type SessionTimeInput = z.input<typeof ZSessionTimeForm>;

/** Minutes as the form's hours and minutes boxes. */
export function toSessionTimeInput(settings: SessionSettings): SessionTimeInput {
  return {
    lifetime_hours: String(Math.floor(settings.max_lifetime_minutes / 60)),
    lifetime_minutes: String(settings.max_lifetime_minutes % 60),
    idle_hours: String(Math.floor(settings.idle_timeout_minutes / 60)),
    idle_minutes: String(settings.idle_timeout_minutes % 60),
  };
}
