import { z } from 'zod';
import { ID_MAX } from '../constants';
import { ZPaging } from '../paging.schema';

/**
 * Outgoing webhooks (issue 12): a zone subscribes an https URL to event types; each event
 * becomes a signed delivery, retried with backoff for a day. The scheme is documented in
 * docs/api/webhooks.md.
 */

/** The events a webhook may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'device.offline',
  'patch.failed',
  'run.finished',
  'task.executed',
  'vulnerability.critical',
] as const;
export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof ZWebhookEventType>;

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'device.offline': 'Device went offline',
  'patch.failed': 'Patch failed',
  'run.finished': 'Policy run finished',
  'task.executed': 'Remediation task executed',
  'vulnerability.critical': 'New critical vulnerability',
};

/** Characters of the failed command's error output a `patch.failed` payload carries (its end). */
export const PATCH_FAILED_ERROR_MAX = 500;

/** The `data` of a `patch.failed` event: what a receiver needs to act without calling back. */
export const ZPatchFailedPayload = z.object({
  /** The device, by id and by the name the console shows (its custom name, else its host name). */
  device: z.object({ id: z.number().int(), name: z.string(), hostname: z.string() }),
  /** The zone the device is in (also the envelope's `zone_id`). */
  zone: z.object({ id: z.number().int(), name: z.string() }),
  command: z.object({
    id: z.number().int(),
    /** `install_updates`, `install_all` or `install_package`. */
    type: z.string(),
    /** `error` or `timed_out`. */
    status: z.string(),
    exit_code: z.number().int().nullable(),
    /** The patches the command was to install (empty for `install_all`: every pending one). */
    updates: z.array(z.string()),
    policy_result_id: z.number().int().nullable(),
    /** When the device reported the failure (ISO 8601). */
    finished_at: z.string().nullable(),
  }),
  /** The policy whose run queued the command; null for a command queued by hand. */
  policy: z.object({ id: z.number().int(), name: z.string(), run_id: z.number().int() }).nullable(),
  /** The end of the command's error output, at most {@link PATCH_FAILED_ERROR_MAX} characters; null when it wrote none. */
  error: z.string().max(PATCH_FAILED_ERROR_MAX).nullable(),
});
export type PatchFailedPayload = z.infer<typeof ZPatchFailedPayload>;

/** A delivery carries one of the subscribed events, or `ping` (the "Send test" button). */
export const WEBHOOK_DELIVERY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, 'ping'] as const;
export type WebhookDeliveryEventType = (typeof WEBHOOK_DELIVERY_EVENT_TYPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Headers of every delivery. */
export const WEBHOOK_HEADERS = {
  signature: 'Patchwell-Signature',
  event: 'Patchwell-Event',
  delivery: 'Patchwell-Delivery',
} as const;

/** Webhooks a zone may have. */
export const WEBHOOKS_PER_ZONE_MAX = 20;
export const WEBHOOK_URL_MAX = 2000;

export const WEBHOOK_TEXTS = {
  urlInvalid: 'Enter a valid URL.',
  urlHttps: 'The URL must start with https://.',
  urlCredentials: 'The URL must not contain a user name or password.',
  urlTooLong: `The URL must be at most ${WEBHOOK_URL_MAX} characters.`,
  eventsRequired: 'Choose at least one event.',
  tooMany: `A zone can have at most ${WEBHOOKS_PER_ZONE_MAX} webhooks.`,
  privateTarget: 'The URL points to a private, loopback or link-local address, which webhooks cannot reach.',
  unresolvable: 'The URL’s host name could not be resolved.',
} as const;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The URL's shape: https (or, when `allowLoopbackHttp`, http to a loopback host), no
 * credentials, at most {@link WEBHOOK_URL_MAX} characters. Where it points (private
 * addresses) is checked by the server when it resolves the host. Returns the problem, or
 * undefined when the URL is acceptable.
 */
export function webhookUrlProblem(url: string, options: { allowLoopbackHttp?: boolean } = {}): string | undefined {
  if (url.length > WEBHOOK_URL_MAX) return WEBHOOK_TEXTS.urlTooLong;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return WEBHOOK_TEXTS.urlInvalid;
  }
  if (parsed.username || parsed.password) return WEBHOOK_TEXTS.urlCredentials;
  if (parsed.protocol === 'https:') return parsed.hostname ? undefined : WEBHOOK_TEXTS.urlInvalid;
  if (parsed.protocol === 'http:' && options.allowLoopbackHttp && LOOPBACK_HOSTS.has(parsed.hostname)) return undefined;
  return WEBHOOK_TEXTS.urlHttps;
}

const id = z.coerce.number().int().positive().max(ID_MAX);
const zone = { o: id.optional(), org: id.optional() };

const ZEventTypes = z
  .array(ZWebhookEventType)
  .min(1, WEBHOOK_TEXTS.eventsRequired)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

/** `POST /api/webhooks?o`. */
export const ZCreateWebhookBody = z.object({
  /** Where deliveries are POSTed: https (http to 127.0.0.1 or ::1 only when the server allows it for tests). */
  url: z.string().trim().min(1, WEBHOOK_TEXTS.urlInvalid).max(WEBHOOK_URL_MAX, WEBHOOK_TEXTS.urlTooLong),
  /** The events to deliver, at least one. */
  event_types: ZEventTypes,
  /** Off: nothing is enqueued for it. Default on. */
  enabled: z.boolean().default(true),
});
export type CreateWebhookBody = z.infer<typeof ZCreateWebhookBody>;

/** `PATCH /api/webhooks/{webhookId}?o`: the fields to change. */
export const ZUpdateWebhookBody = z.object({
  url: ZCreateWebhookBody.shape.url.optional(),
  event_types: ZEventTypes.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookBody = z.infer<typeof ZUpdateWebhookBody>;

export const ZWebhookParams = z.object({ webhookId: id });
export const ZWebhookDeliveryParams = z.object({ webhookId: id, deliveryId: id });

export const ZWebhookListQuery = z
  .object({ ...zone, ...ZPaging.shape })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const ZWebhookDeliveryListQuery = z
  .object({
    ...zone,
    ...ZPaging.shape,
    /** Only deliveries in this status. */
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));

export const ZWebhook = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(ZWebhookEventType),
  enabled: z.boolean(),
  /** E-mail of who created it; null when that user is gone. */
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof ZWebhook>;

/** A webhook as created or after "rotate secret": the only answers that carry the secret. */
export const ZWebhookWithSecret = ZWebhook.extend({
  /** The signing secret (`whsec_…`), shown this once. */
  secret: z.string(),
});
export type WebhookWithSecret = z.infer<typeof ZWebhookWithSecret>;

export const ZWebhookList = z.object({ data: z.array(ZWebhook), size: z.number().int() });
export type WebhookList = z.infer<typeof ZWebhookList>;

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  webhook_id: z.number().int(),
  event_type: z.enum(WEBHOOK_DELIVERY_EVENT_TYPES),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** Attempts made so far. */
  attempts: z.number().int(),
  /** When the next attempt is due (pending only). */
  next_attempt_at: z.string().nullable(),
  /** Retries stop at this time; the delivery then fails. */
  retry_until: z.string(),
  /** HTTP status of the last attempt; null when it got no answer. */
  last_status_code: z.number().int().nullable(),
  /** Why the last attempt failed (a network error or a non-2xx answer). */
  last_error: z.string().nullable(),
  /** The start of the last answer's body (at most 500 characters). */
  response_excerpt: z.string().nullable(),
  /** How long the last attempt took, in milliseconds. */
  duration_ms: z.number().int().nullable(),
  /** The JSON body sent (its `data`). */
  payload: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const ZWebhookDeliveryList = z.object({ data: z.array(ZWebhookDelivery), size: z.number().int() });
export type WebhookDeliveryList = z.infer<typeof ZWebhookDeliveryList>;
