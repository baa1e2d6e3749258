/** Business constants and limits of spec A section 9 and spec B section 9. */

export const PRODUCT_NAME = 'Patchwell';
export const CONSOLE_BASE = '/console/';
export const API_BASE = '/api';
export const BESPOKE_BASE = '/bespoke';
/**
 * The id of the data block in which the server sends a signed-in user's profile with a
 * console page (JSON `{ o, profile, banners }`: the answers of `GET /api/users/self?o=` and
 * `GET /api/banners`, banners `null` when they could not be read), read once by
 * the console instead of asking for it (packages/server/src/http/console-profile.ts).
 */
export const CONSOLE_PROFILE_ELEMENT_ID = 'pw-profile';

/**
 * The id of the data block in which the server sends its client configuration with every
 * console page (the answer of `GET /api/shared/js/config`, the same for everyone), read once
 * by the console instead of asking for it (packages/server/src/http/console.ts).
 */
export const CONSOLE_CONFIG_ELEMENT_ID = 'pw-config';

/**
 * The id of the data block in which the server sends the query data a page it drew was drawn
 * from (its own queries' answers, shell/page-render.ts's ConsolePageState), so that the console
 * hydrates the same markup from the same data (packages/web/src/ssr/render-page.tsx).
 */
export const CONSOLE_RENDERED_ELEMENT_ID = 'pw-rendered';

/** The `err` of `/console/login?err=…` after a refused SAML sign-in (the page shows the generic login failure). */
export const SAML_SIGNIN_ERROR = 'saml_failed';

export const ONE_MINUTE_MS = 60_000;
export const ONE_HOUR_MS = 3_600_000;
export const ONE_DAY_MS = 86_400_000;

/** Profile cache lifetime: refetched only if never loaded or older than this. */
export const PROFILE_CACHE_MS = 1_800_000;
export const OVERVIEW_REPORT_DAYS_BACK = 10;

export const QUERY_TIMEOUT_MS = 60_000;
export const QUERY_CACHE_ENTRIES = 10;
export const ROLE_QUERY_TIMEOUT_MS = 6_000;
export const PERMISSION_QUERY_TIMEOUT_MS = 5_000;
export const DEBOUNCE_MS = 200;
export const LOADER_HIDE_DELAY_MS = 200;
export const LOADING_USAGE_REPORT_MS = 60_000;

export const SNACKBAR_DURATION_MS = 6_000;
export const SNACKBAR_LIMIT = 5;

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100, 500] as const;
export const PAGE_SIZE_MAX = 500;
export const PAGE_SIZE_EXTRA = 700;

/** The largest id the database's `integer` columns hold (2^31 - 1); a larger one names nothing. */
export const ID_MAX = 2_147_483_647;

/** Query-string parser limits (qs defaults, spec A section 9). */
export const QUERY_PARSER = { depth: 5, arrayLimit: 20, parameterLimit: 1000 } as const;

export const NAME_MAX_LENGTH = 31; // "under 32 characters"
export const COMPANY_NAME_MAX_LENGTH = 64;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
export const ENDPOINTS_MAX = 1_000_000;

/** Session bounds in minutes (spec A section 5). */
export const SESSION_LIFETIME_MIN_MINUTES = 30;
export const SESSION_LIFETIME_MAX_MINUTES = 2160 * 60;
export const SESSION_IDLE_MIN_MINUTES = 30;
export const SESSION_IDLE_MAX_MINUTES = 720 * 60;
export const SESSION_LIFETIME_DEFAULT_MINUTES = 12 * 60;
export const SESSION_IDLE_DEFAULT_MINUTES = 30;

export const ZONE_SWITCHER_WIDTH_PX = 277;
export const ZONE_SWITCHER_MAX_HEIGHT_REM = 32;
export const ZONE_SWITCHER_MAX_HEIGHT_SMALL_REM = 32.5;
export const CREATE_ZONE_DIALOG_WIDTH = '43rem';
export const MODAL_SIZES = { sm: '32rem', md: '48rem', lg: '64rem', xl: '72rem' } as const;

export const DATE_FORMAT = "yyyy-MM-dd h:mm a 'UTC'";
export const LOCALE = 'en-US';

/** Legacy single-sign-on cut-off (spec A section 4). */
export const LEGACY_SSO_CUTOFF = '2022-11-18';
