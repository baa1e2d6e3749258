import { describe, expect, it } from 'vitest';
import {
  STORAGE_KEYS,
  dismissBanner,
  dismissedBannerIds,
  lastRoute,
  rememberCurrentOrg,
  rememberLastRoute,
  storedCurrentOrg,
} from './storage';

describe('last route storage', () => {
  it('remembers the last signed-in route with its query', () => {
    rememberLastRoute('/devices/12?o=3&tab=software');
    expect(lastRoute()).toBe('/devices/12?o=3&tab=software');
    expect(window.localStorage.getItem(STORAGE_KEYS.lastRoute)).toBe('/devices/12?o=3&tab=software');
  });

  it('does not remember public pages', () => {
    rememberLastRoute('/reports?o=1');
    rememberLastRoute('/login?redirect=/x');
    rememberLastRoute('/signup');
    expect(lastRoute()).toBe('/reports?o=1');
  });

  it('ignores a stored value that is not a safe console path', () => {
    window.localStorage.setItem(STORAGE_KEYS.lastRoute, 'https://evil.example/steal');
    expect(lastRoute()).toBeNull();
    window.localStorage.setItem(STORAGE_KEYS.lastRoute, '//evil.example');
    expect(lastRoute()).toBeNull();
  });

  it('keeps the current org id', () => {
    expect(storedCurrentOrg()).toBeUndefined();
    rememberCurrentOrg(42);
    expect(storedCurrentOrg()).toBe(42);
    window.localStorage.setItem(STORAGE_KEYS.currentOrg, 'nope');
    expect(storedCurrentOrg()).toBeUndefined();
  });

  it('keeps dismissed banners for the browser session only', () => {
    dismissBanner(3);
    dismissBanner(5);
    expect(dismissedBannerIds()).toEqual([3, 5]);
    expect(window.sessionStorage.getItem(STORAGE_KEYS.dismissedBanners)).toBe('[3,5]');
    expect(window.localStorage.getItem(STORAGE_KEYS.dismissedBanners)).toBeNull();
  });
});
