// The dashboard's figures (issue 12), apart from its schema: the devices list's filter reads
// the critical-days rule too, and a constant should not bring zod and the reports' schemas
// with it.

/** Days of compliance the dashboard's trend covers (today included). */
export const DASHBOARD_TREND_DAYS = 30;
/** Days of patch activity the dashboard shows (today included). */
export const DASHBOARD_ACTIVITY_DAYS = 7;
/**
 * A device counts as "missing critical patches" when a critical patch it has pending was
 * published more than this many whole days ago. The devices list's `critical_older_than`
 * filter takes the same number and applies the same rule.
 */
export const DASHBOARD_CRITICAL_DAYS = 14;
/** Rows of the "most vulnerable software" and "recent failures" tables. */
export const DASHBOARD_TOP = 10;
/** How long a zone's dashboard is served before it is computed again (report_caches). */
export const DASHBOARD_TTL_MS = 5 * 60_000;
