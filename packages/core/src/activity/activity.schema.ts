import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';
import { isValidDate } from '../rules/datetime';
import { DATE_RANGE_ERRORS, DATE_RANGE_PRESETS, type DateRangePreset } from '../reports/date-range';

/**
 * The activity log (issue 12): what people, API keys, agents and the server did, per zone.
 * `GET /api/events` lists it; `GET /api/events/csv` exports it. Events are never edited or
 * deleted through the API.
 */

/** How the actor acted: a console session, an API key, a device's agent, or the server itself. */
export const ACTIVITY_VIAS = ['session', 'api_key', 'agent', 'system'] as const;
export const ZActivityVia = z.enum(ACTIVITY_VIAS);
export type ActivityVia = z.infer<typeof ZActivityVia>;

/** A field's value before and after a change. */
export const ZActivityChange = z.object({ from: z.unknown(), to: z.unknown() });
export type ActivityChange = z.infer<typeof ZActivityChange>;

/**
 * What an event says beyond who, what and on what: `changes` holds only the fields that
 * changed; other keys are facts about the action (a count, a command's status). Never a
 * password, token, key or one-time code.
 */
export const ZActivityDetails = z
  .object({ changes: z.record(z.string(), ZActivityChange).optional() })
  .catchall(z.unknown());
export type ActivityDetails = z.infer<typeof ZActivityDetails>;

/** Date range presets (spec B section 3): the reports' own, whole UTC days. */
export const ZDateRangePreset = z.enum(DATE_RANGE_PRESETS);
export type { DateRangePreset };

const id = z.coerce.number().int().positive().max(ID_MAX);
const date = z.string().refine(isValidDate, DATE_RANGE_ERRORS.invalid);

/** The filters of `GET /api/events` and `GET /api/events/csv`. */
export const ZActivityFilters = z.object({
  o: id.optional(),
  org: id.optional(),
  /** Date range. Default `last30days`; `custom` takes `startDate` and `endDate`. */
  preset: ZDateRangePreset.optional(),
  /** First day of a custom range, YYYY-MM-DD (UTC), within the last 90 days. */
  startDate: date.optional(),
  /** Last day of a custom range, YYYY-MM-DD (UTC), not in the future. */
  endDate: date.optional(),
  /** Only events of this user (as the actor, or as the key's owner). */
  user_id: id.optional(),
  /** Only this action or its family: `device` matches `device.reboot` and `device.tag`. */
  action: z
    .string()
    .max(100)
    .regex(/^[a-z_]+(\.[a-z_]+)*$/, 'Must be an action such as device or device.reboot.')
    .optional(),
  /** Only events on objects of this type (`device`, `policy`, `user`…). */
  object_type: z
    .string()
    .max(50)
    .regex(/^[a-z_]+$/, 'Must be an object type such as device or policy.')
    .optional(),
  /** With `object_type`: only events on this object. */
  object_id: z.string().min(1).max(64).optional(),
});

type RawFilters = z.infer<typeof ZActivityFilters>;

function checkFilters(value: RawFilters, issue: (path: string, message: string) => void) {
  const preset = value.preset ?? (value.startDate || value.endDate ? 'custom' : 'last30days');
  if (preset === 'custom') {
    if (!value.startDate) issue('startDate', DATE_RANGE_ERRORS.required);
    if (!value.endDate) issue('endDate', DATE_RANGE_ERRORS.required);
  } else {
    if (value.startDate) issue('startDate', DATE_RANGE_ERRORS.onlyCustom);
    if (value.endDate) issue('endDate', DATE_RANGE_ERRORS.onlyCustom);
  }
  if (value.object_id !== undefined && value.object_type === undefined) {
    issue('object_type', 'Required with object_id.');
  }
}

/** The filters with the zone resolved (`o` or its alias `org`) and the preset defaulted. */
export type ActivityFilters = {
  o: number | undefined;
  preset: DateRangePreset;
  startDate?: string;
  endDate?: string;
  user_id?: number;
  action?: string;
  object_type?: string;
  object_id?: string;
};

function normalise(value: RawFilters): ActivityFilters {
  return {
    o: value.o ?? value.org,
    preset: value.preset ?? (value.startDate || value.endDate ? 'custom' : 'last30days'),
    startDate: value.startDate,
    endDate: value.endDate,
    user_id: value.user_id,
    action: value.action,
    object_type: value.object_type,
    object_id: value.object_id,
  };
}

const refineFilters = (value: RawFilters, ctx: z.RefinementCtx) =>
  checkFilters(value, (path, message) => ctx.addIssue({ code: 'custom', path: [path], message }));

/** `GET /api/events?o&preset&startDate&endDate&user_id&action&object_type&object_id&page&limit`. */
export const ZActivityQuery = ZActivityFilters.extend(ZPaging.shape)
  .loose()
  .superRefine(refineFilters)
  .transform((value): ActivityQuery => ({ ...normalise(value), page: value.page, limit: value.limit }));
export type ActivityQuery = ActivityFilters & { page: number; limit: number };

/** `GET /api/events/csv`: the list's filters; every matching event, newest first. */
export const ZActivityCsvQuery = ZActivityFilters.loose().superRefine(refineFilters).transform(normalise);

/** One event of the activity log. */
export const ZActivityEvent = z.object({
  id: z.number().int(),
  /** When it happened (ISO 8601, UTC). */
  created_at: z.string(),
  /** The zone; null for an account-level event (a sign-in). */
  organization_id: z.number().int().nullable(),
  /** Who acted. */
  actor: z.object({
    type: z.enum(['user', 'api_key', 'device', 'system']),
    user_id: z.number().int().nullable(),
    api_key_id: z.number().int().nullable(),
    device_id: z.number().int().nullable(),
    /** The user's e-mail or the device's name when the event was written. */
    name: z.string().nullable(),
  }),
  via: ZActivityVia,
  /** What was done, `object.verb` (`device.reboot`, `auth.signin_failed`). */
  action: z.string(),
  /** What it was done to, with its name when the event was written. */
  object: z.object({ type: z.string(), id: z.string().nullable(), name: z.string().nullable() }),
  details: ZActivityDetails,
  /** One line from `details`: the changed fields, then the other facts. */
  summary: z.string(),
  /** The client's address; null for agent and system events. */
  client_address: z.string().nullable(),
});
export type ActivityEvent = z.infer<typeof ZActivityEvent>;

/** How many matching events a list counts at most; the CSV export has them all. */
export const ACTIVITY_COUNT_CAP = 10_000;

export const ZActivityEventList = z.object({
  data: z.array(ZActivityEvent),
  /** Matching events, counted up to 10,000. */
  size: z.number().int(),
  /** True when more than 10,000 events match (narrow the filters, or export the CSV for all of them). */
  size_capped: z.boolean(),
});
export type ActivityEventList = z.infer<typeof ZActivityEventList>;
