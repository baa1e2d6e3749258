/**
 * The login redirect rule (spec A section 5): a redirect target is rejected if it is a
 * bare root, an absolute URL or a domain-looking value. What remains is a path inside
 * the console, so following it can never leave this origin.
 */

// Any "scheme:" prefix, including javascript: and data:, and protocol-relative forms.
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// "evil.com", "evil.com/x", "/evil.com", "/evil.com:8080/x", "www.evil.com".
const DOMAIN_LIKE = /^\/?[^/?#]*\.[a-z]{2,}(?::\d+)?(?:[/?#]|$)/i;
const PROBE_ORIGIN = 'http://redirect.invalid';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\\]/;

/** True when `target` is a safe in-console path to return to after sign-in. */
export function isValidRedirect(target: string | null | undefined): target is string {
  if (typeof target !== 'string') return false;
  const value = target.trim();
  if (value !== target || value.length === 0 || value.length > 2048) return false;
  if (CONTROL.test(value)) return false;
  if (!value.startsWith('/')) return false; // relative or absolute URL
  if (value.startsWith('//')) return false; // protocol-relative absolute URL
  if (value === '/' || /^\/[?#]/.test(value)) return false; // bare root
  if (SCHEME.test(value.slice(1))) return false;
  if (DOMAIN_LIKE.test(value)) return false;
  // Resolve as a browser would: dot segments ("/.", "/a/../evil.com", "/%2e") must not
  // turn an accepted value into the root or another path than the one checked above.
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return false;
  }
  const rawPath = value.split(/[?#]/, 1)[0];
  return url.origin === PROBE_ORIGIN && url.pathname === rawPath;
}

/** The redirect to follow after sign-in, or `fallback` when the given one is unsafe. */
export function safeRedirect(target: string | null | undefined, fallback = '/dashboard'): string {
  return isValidRedirect(target) ? target : fallback;
}
