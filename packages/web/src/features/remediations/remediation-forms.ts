import {
  CVE_EXCEPTION_KINDS,
  type CveExceptionBody,
  type RemediationDeadlines,
} from '@patchwell/core/remediation/cves.schema';
import { isValidDate } from '@patchwell/core/rules/datetime';
import { TEXTS } from '@patchwell/core/texts';
import { z } from 'zod';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

/** Severities a deadline can be set for (`none` has none). */
export const DEADLINE_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
const DEADLINE_MIN = 1;
const DEADLINE_MAX = 365;

/** The deadlines form: one text box per severity, empty for no deadline. */
export type DeadlinesInput = Record<(typeof DEADLINE_SEVERITIES)[number], string>;

const days = z
  .string()
  .trim()
  .refine(
    (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= DEADLINE_MIN && Number(v) <= DEADLINE_MAX),
    TEXTS.validation.numberBetween(DEADLINE_MIN, DEADLINE_MAX),
  )
  .transform((v) => (v === '' ? null : Number(v)));

/** Parses the form into the body of `PUT .../remediation-deadlines` (core's ZRemediationDeadlines). */
export const ZDeadlinesForm = z.object({ critical: days, high: days, medium: days, low: days });

export function toDeadlinesInput(d: RemediationDeadlines): DeadlinesInput {
  const text = (v: number | null) => (v === null ? '' : String(v));
  return { critical: text(d.critical), high: text(d.high), medium: text(d.medium), low: text(d.low) };
}

/** The exception form: the decision, whom it covers, why, and until when (a day, or none). */
export type ExceptionInput = {
  kind: (typeof CVE_EXCEPTION_KINDS)[number];
  /** A device id, or '' for every device of the zone. */
  device: string;
  reason: string;
  /** YYYY-MM-DD, or '' for no expiry. */
  expires: string;
};

const REASON_MAX = 1000;

/**
 * Checks the exception form against `now` and turns it into core's ZCveExceptionBody: a
 * reason (required, at most 1,000 characters), and an expiry that is a real day after
 * today, ending at that day's last second UTC.
 */
export function exceptionFormSchema(now: Date = new Date()) {
  const today = now.toISOString().slice(0, 10);
  return z
    .object({
      kind: z.enum(CVE_EXCEPTION_KINDS),
      device: z.string(),
      reason: z
        .string()
        .trim()
        .min(1, TEXTS.validation.required)
        .max(REASON_MAX, `At most ${REASON_MAX.toLocaleString('en-US')} characters.`),
      expires: z
        .string()
        .trim()
        .refine((v) => v === '' || isValidDate(v), T.expiryInvalid)
        .refine((v) => v === '' || !isValidDate(v) || v > today, T.expiryInPast),
    })
    .transform((v): CveExceptionBody => ({
      kind: v.kind,
      reason: v.reason,
      ...(v.device ? { device_id: Number(v.device) } : {}),
      ...(v.expires ? { expires_at: `${v.expires}T23:59:59Z` } : {}),
    }));
}
