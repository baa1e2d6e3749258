import { isValidRedirect } from '@patchwell/core/rules/redirect';

/** Browser storage keys (spec A section 3: the last route and the current org id). */
export const STORAGE_KEYS = {
  lastRoute: 'patchwell.lastRoute',
  currentOrg: 'patchwell.currentOrg',
  dismissedBanners: 'patchwell.dismissedBanners',
  unsupportedBrowserDismissed: 'patchwell.unsupportedBrowserDismissed',
  /** The legacy single-sign-on warning modal was shown in this browser session (spec A sections 3 and 4). */
  legacySsoWarningShown: 'patchwell.legacySsoWarningShown',
} as const;

// Storage can throw (disabled cookies, private modes, quota): the console works without it.
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch {
    // ignored: see above
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

// Pages that are never worth returning to after signing in.
const NOT_REMEMBERED =
  /^\/(login|signup|account-created|forgot-password|password-reset|accept-invite|unlock|verify-email)(\/|\?|$)/;

/** Remember a signed-in route (path and query, inside the console) to return to after login. */
export function rememberLastRoute(route: string): void {
  if (!isValidRedirect(route) || NOT_REMEMBERED.test(route)) return;
  write(local, STORAGE_KEYS.lastRoute, route);
}

/** The remembered route, if it is still a safe in-console path. */
export function lastRoute(): string | null {
  const value = read(local, STORAGE_KEYS.lastRoute);
  return isValidRedirect(value) && !NOT_REMEMBERED.test(value) ? value : null;
}

export function rememberCurrentOrg(zoneId: number): void {
  write(local, STORAGE_KEYS.currentOrg, String(zoneId));
}

export function storedCurrentOrg(): number | undefined {
  const value = read(local, STORAGE_KEYS.currentOrg);
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function dismissedBannerIds(): number[] {
  const value = read(session, STORAGE_KEYS.dismissedBanners);
  if (!value) return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === 'number') : [];
  } catch {
    return [];
  }
}

export function dismissBanner(id: number): void {
  const ids = new Set(dismissedBannerIds());
  ids.add(id);
  write(session, STORAGE_KEYS.dismissedBanners, JSON.stringify([...ids]));
}

export function isUnsupportedBrowserDismissed(): boolean {
  return read(session, STORAGE_KEYS.unsupportedBrowserDismissed) === '1';
}

export function dismissUnsupportedBrowser(): void {
  write(session, STORAGE_KEYS.unsupportedBrowserDismissed, '1');
}

export function isLegacySsoWarningShown(): boolean {
  return read(session, STORAGE_KEYS.legacySsoWarningShown) === '1';
}

export function rememberLegacySsoWarningShown(): void {
  write(session, STORAGE_KEYS.legacySsoWarningShown, '1');
}
