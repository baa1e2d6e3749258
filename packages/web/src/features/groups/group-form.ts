import { ZCreateServerGroupBody } from '@patchwell/core/devices/groups.schema';
import { TEXTS } from '@patchwell/core/texts';
import { z } from 'zod';

/** Check-in interval bounds in seconds (core's group schema) and the new-group default. */
export const CHECKIN_MIN_S = 10;
export const CHECKIN_MAX_S = 86_400;
export const CHECKIN_DEFAULT_S = 60;

const intervalMessage = TEXTS.validation.numberBetween(CHECKIN_MIN_S, CHECKIN_MAX_S);

/** The group form: name (required), parent group, check-in interval, notes. */
export const ZGroupForm = z
  .object({
    name: ZCreateServerGroupBody.shape.name,
    parent: z.string(),
    checkin_interval_s: z
      .string()
      .trim()
      .refine((v) => /^\d+$/.test(v) && Number(v) >= CHECKIN_MIN_S && Number(v) <= CHECKIN_MAX_S, intervalMessage),
    notes: z.string().max(10_000),
  })
  .transform((v) => ({
    name: v.name,
    parent_server_group_id: v.parent ? Number(v.parent) : null,
    checkin_interval_s: Number(v.checkin_interval_s),
    notes: v.notes,
  }));
export type GroupFormInput = z.input<typeof ZGroupForm>;
export type GroupFormValues = z.output<typeof ZGroupForm>;
