import { ZCreateApiKeyBody, type CreateApiKeyBody } from '@patchwell/core/users/api-keys.schema';
import { TEXTS } from '@patchwell/core/texts';
import { z } from 'zod';

/** The longest expiry the form offers, in days (ten years). */
export const KEY_EXPIRY_MAX_DAYS = 3650;
/** The zone select's value for "all zones of the account" (global administrators only). */
export const ALL_ZONES = 'all';

const expiryMessage = TEXTS.validation.numberBetween(1, KEY_EXPIRY_MAX_DAYS);

/** The create-key form: name, zone (or all zones), optional expiry in days. */
export const ZCreateKeyForm = z
  .object({
    name: ZCreateApiKeyBody.shape.name,
    zone: z.string().min(1, TEXTS.validation.required),
    expires_in_days: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= KEY_EXPIRY_MAX_DAYS),
        expiryMessage,
      ),
  })
  .transform((v): CreateApiKeyBody => ({
    name: v.name,
    zone_id: v.zone === ALL_ZONES ? null : Number(v.zone),
    ...(v.expires_in_days === '' ? {} : { expires_in_days: Number(v.expires_in_days) }),
  }));
export type CreateKeyFormInput = z.input<typeof ZCreateKeyForm>;
