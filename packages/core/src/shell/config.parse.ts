import type { ClientConfig } from './config.schema';

/** Where and why a payload did not match, in the shape of a zod issue's `path` and `message`. */
export type ShapeIssue = { path: (string | number)[]; message: string };

export type ParseResult<T> = { success: true; data: T } | { success: false; error: { issues: ShapeIssue[] } };

class ShapeMismatch extends Error {
  constructor(
    readonly path: (string | number)[],
    readonly expected: string,
  ) {
    super(`Expected ${expected}`);
  }
}

function record(value: unknown, path: (string | number)[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeMismatch(path, 'object');
  return value as Record<string, unknown>;
}

function str(object: Record<string, unknown>, key: string, path: (string | number)[]): string {
  const value = object[key];
  if (typeof value !== 'string') throw new ShapeMismatch([...path, key], 'string');
  return value;
}

function int(object: Record<string, unknown>, key: string, path: (string | number)[]): number {
  const value = object[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ShapeMismatch([...path, key], 'integer');
  return value;
}

function bool(object: Record<string, unknown>, key: string, path: (string | number)[]): boolean {
  const value = object[key];
  if (typeof value !== 'boolean') throw new ShapeMismatch([...path, key], 'boolean');
  return value;
}

function list<T>(
  object: Record<string, unknown>,
  key: string,
  path: (string | number)[],
  item: (entry: Record<string, unknown>, at: (string | number)[]) => T,
): T[] {
  const value = object[key];
  if (!Array.isArray(value)) throw new ShapeMismatch([...path, key], 'array');
  return value.map((entry, index) => item(record(entry, [...path, key, index]), [...path, key, index]));
}

function sessionLimits(session: Record<string, unknown>): ClientConfig['session'] {
  return {
    idle_timeout_minutes: int(session, 'idle_timeout_minutes', ['session']),
    max_lifetime_minutes: int(session, 'max_lifetime_minutes', ['session']),
  };
}

/**
 * `ZClientConfig` checked by hand, with the same result: the config is the one payload the
 * signed-out pages read, and zod (25 KiB gzip) would be the login page's third-largest
 * download for it. Unknown keys are dropped as zod's objects drop them; the first mismatch
 * is reported. `config.parse.test.ts` holds it to the schema.
 */
export function parseClientConfig(value: unknown): ClientConfig {
  const root = record(value, []);
  return {
    environment: str(root, 'environment', []),
    version: str(root, 'version', []),
    countries: list(root, 'countries', [], (c, at) => ({ name: str(c, 'name', at), code: str(c, 'code', at) })),
    help_links: list(root, 'help_links', [], (l, at) => ({ label: str(l, 'label', at), url: str(l, 'url', at) })),
    support_url: str(root, 'support_url', []),
    docs_url: str(root, 'docs_url', []),
    session: sessionLimits(record(root.session, ['session'])),
    signup_enabled: bool(root, 'signup_enabled', []),
    password_reset_enabled: bool(root, 'password_reset_enabled', []),
  };
}

/** `parseClientConfig` behind zod's `safeParse` signature, for the console's API client. */
export const ClientConfigShape = {
  safeParse(value: unknown): ParseResult<ClientConfig> {
    try {
      return { success: true, data: parseClientConfig(value) };
    } catch (error) {
      if (!(error instanceof ShapeMismatch)) throw error;
      return { success: false, error: { issues: [{ path: error.path, message: error.message }] } };
    }
  },
};
