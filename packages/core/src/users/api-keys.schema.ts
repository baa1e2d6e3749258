import { z } from 'zod';
import { TEXTS } from '../texts';

/** Longest name of an API key. */
export const API_KEY_NAME_MAX_LENGTH = 64;

/** Payloads of Settings › Keys (`/api/users/self/api_keys`, docs/api/zones-users-contract.md). */

/** An API key as listed; the secret itself is never returned again. */
export const ZApiKey = z.object({
  /** Numeric key id. */
  id: z.number().int(),
  /** Name given by the owner. */
  name: z.string(),
  /** The first characters of the key (e.g. `pw_abc1`), to recognise it. */
  prefix: z.string(),
  /** The one zone the key acts in (numeric id); null for all zones of the account. */
  zone_id: z.number().int().nullable(),
  /** Creation time (ISO 8601). */
  created_at: z.string(),
  /** Last use (ISO 8601), null when never used. */
  last_used_at: z.string().nullable(),
  /** Expiry (ISO 8601), null when it never expires. */
  expires_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = z.array(ZApiKey);

/** `POST /api/users/self/api_keys?o=`. */
/** The longest lifetime a key can be given, in days. */
export const API_KEY_MAX_DAYS = 3650;

export const ZCreateApiKeyBody = z.object({
  /** Name to recognise the key by: 1 to 64 characters. */
  name: z
    .string({ error: TEXTS.validation.namedRequired('Name') })
    .trim()
    .min(1, TEXTS.validation.namedRequired('Name'))
    .max(API_KEY_NAME_MAX_LENGTH, `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters.`),
  /** The zone the key acts in; omitted means zone `o`, null means all zones (global administrators only). */
  zone_id: z.number().int().positive().nullable().optional(),
  /** Days until the key expires, 1 to 3650 (ten years); omitted means never. */
  expires_in_days: z
    .number()
    .int()
    .positive()
    .max(
      API_KEY_MAX_DAYS,
      `A key expires in at most ${API_KEY_MAX_DAYS} days; leave it empty for a key that never expires.`,
    )
    .optional(),
});
export type CreateApiKeyBody = z.infer<typeof ZCreateApiKeyBody>;

/** 201 answer of the creation: the key, shown this once (`pw_` + 40 random characters). */
export const ZCreatedApiKey = ZApiKey.extend({
  /** The secret, sent as `Authorization: Bearer <key>`; stored only as a hash. */
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof ZCreatedApiKey>;
