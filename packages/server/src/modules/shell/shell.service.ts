import type { Banner } from '@patchwell/core/shell/banner.schema';
import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { COUNTRIES } from '@patchwell/core/shell/countries';
import { resolveFeatures, type Features } from '@patchwell/core/shell/flags';
import { SESSION_IDLE_DEFAULT_MINUTES, SESSION_LIFETIME_DEFAULT_MINUTES } from '@patchwell/core/constants';
import type { AppContext } from '../../context';
import { findActiveBanners, findFlags } from './shell.store';
import { SERVER_VERSION } from '../../version';

/** Alert banners to show now, oldest first. */
export async function listActiveBanners(ctx: AppContext): Promise<Banner[]> {
  return findActiveBanners(ctx.db, ctx.clock.now());
}

/**
 * Feature flags for a zone: the defaults of core/shell/flags.ts and PATCHWELL_FLAGS, then the
 * account's overrides, then the zone's. Without an account, the defaults.
 */
export async function featuresFor(ctx: AppContext, accountId: number | null, zoneId: number | null): Promise<Features> {
  if (accountId === null) return resolveFeatures(ctx.config.flagDefaults);
  const flags = await findFlags(ctx.db, accountId, zoneId);
  const layer = (zone: boolean) =>
    Object.fromEntries(flags.filter((f) => (f.organizationId !== null) === zone).map((f) => [f.name, f.enabled]));
  return resolveFeatures({ ...ctx.config.flagDefaults, ...layer(false) }, layer(true));
}

/**
 * The console's configuration (`GET /api/shared/js/config`): countries, help links built
 * from PATCHWELL_HELP_BASE_URL, the default session bounds and whether sign-up is open.
 * Public and the same for everyone, so nothing account-specific belongs here.
 */
export function clientConfig(ctx: AppContext): ClientConfig {
  const { config } = ctx;
  const help = config.helpBaseUrl;
  return {
    environment: config.environment,
    version: SERVER_VERSION,
    countries: [...COUNTRIES],
    help_links: [
      { label: 'Knowledge Base', url: `${help}/kb` },
      { label: 'Release Notes', url: `${help}/release-notes` },
      { label: 'Community', url: `${help}/community` },
      { label: 'API Reference Guide', url: `${config.publicUrl ?? ''}/api/docs` },
      { label: 'University', url: `${help}/university` },
    ],
    support_url: config.supportUrl,
    docs_url: help,
    session: {
      idle_timeout_minutes: SESSION_IDLE_DEFAULT_MINUTES,
      max_lifetime_minutes: SESSION_LIFETIME_DEFAULT_MINUTES,
    },
    signup_enabled: config.signupEnabled,
    // Before sign-in there is no account to read flags of: the server's default decides.
    password_reset_enabled: resolveFeatures(config.flagDefaults).auth_milestone_1,
  };
}
