import { z } from 'zod';

/** `GET /api/shared/js/config?json=true`: client-side configuration (spec A section 3). */
export const ZClientConfig = z.object({
  environment: z.string(),
  version: z.string(),
  countries: z.array(z.object({ name: z.string(), code: z.string() })),
  /** Help-menu links (Knowledge Base, Release Notes, Community, API Reference Guide, University). */
  help_links: z.array(z.object({ label: z.string(), url: z.string() })),
  support_url: z.string(),
  docs_url: z.string(),
  session: z.object({ idle_timeout_minutes: z.number().int(), max_lifetime_minutes: z.number().int() }),
  signup_enabled: z.boolean(),
  /**
   * Whether /forgot-password and /password-reset are offered to signed-out users: the server's
   * default of the first authentication milestone flag (`PATCHWELL_FLAGS`), as no account is known yet.
   */
  password_reset_enabled: z.boolean(),
});
export type ClientConfig = z.infer<typeof ZClientConfig>;
