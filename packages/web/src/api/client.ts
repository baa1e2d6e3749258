import { QUERY_TIMEOUT_MS } from '@patchwell/core/constants';
import { ApiError, ResponseShapeError, TimeoutError, type ApiErrorBody } from './errors';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * What checks a 2xx body: a core zod schema, or a hand-checked parser with zod's `safeParse`
 * signature for the signed-out pages, which load no zod (`core/shell/config.parse`).
 */
export type ResponseSchema<T> = {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
};

export type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Query parameters (arrays as `a[]=1&a[]=2`). */
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  /** A body sent as given (uploads); instead of `body`. */
  rawBody?: { data: Uint8Array<ArrayBuffer>; contentType: string };
  headers?: Record<string, string>;
  /** Validates and types a 2xx body. */
  schema?: ResponseSchema<T>;
  /** Defaults to 60 000 ms (spec A section 9). */
  timeoutMs?: number;
  /** Cancels the request (react-query passes one). */
  signal?: AbortSignal;
  /**
   * Skip the "is my session still valid?" check after a 401/403: for the session check
   * itself and for calls whose 401 means something else (wrong password at login).
   */
  skipAuthCheck?: boolean;
};

export type ApiClientOptions = {
  /** Origin the relative `/api` paths resolve against; the page's origin by default. */
  baseUrl?: string;
  /** Called when a request starts and when it settles (the global loader counts them). */
  onRequestStart?: () => void;
  onRequestEnd?: () => void;
  /** Called after a 401 or 403 from a call that did not opt out (spec A section 8). */
  onAuthFailure?: (error: ApiError) => void;
  /** Sends a request: the page's `fetch` by default; the server's drawing of a page reads through the app (ssr/render-page.tsx). */
  fetch?: (url: URL, init: RequestInit) => Promise<Response>;
};

export type ApiClient = {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  configure(options: Partial<ApiClientOptions>): void;
  /** The absolute URL a request to `path` goes to (for calls made outside `request`: uploads with progress). */
  url(path: string, query?: Record<string, QueryValue>): URL;
  /**
   * Hands a call made outside `request` (an upload with progress) the same "is my session
   * still valid?" check a 401 or 403 of `request` triggers.
   */
  reportFailure(error: ApiError): void;
};

/**
 * Flat query encoding the server's qs parser reads back: arrays as `key[]=a&key[]=b`,
 * null and undefined left out. (qs itself would add ~10 kB to the login page.)
 */
export function encodeQuery(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(`${key}[]`, String(item));
    else params.append(key, String(value));
  }
  return params.toString();
}

function pageOrigin(): string {
  return typeof window !== 'undefined' && window.location ? window.location.origin : 'http://127.0.0.1';
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  return text;
}

function asErrorBody(body: unknown): ApiErrorBody | null {
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as ApiErrorBody;
  if (typeof body === 'string' && body) return { message: body };
  return null;
}

/**
 * A small typed fetch wrapper for the Patchwell API: same-origin credentials, a default
 * 60 s timeout that fails with TimeoutError, 2xx bodies validated by the core schema, and
 * non-2xx responses thrown as ApiError with status and body.
 */
export function createApiClient(initial: ApiClientOptions = {}): ApiClient {
  const options: ApiClientOptions = { ...initial };

  function url(path: string, query?: Record<string, QueryValue>): URL {
    const search = query ? encodeQuery(query) : '';
    return new URL(
      path + (search ? `${path.includes('?') ? '&' : '?'}${search}` : ''),
      options.baseUrl ?? pageOrigin(),
    );
  }

  function reportFailure(failure: ApiError): void {
    if (failure.status === 401 || failure.status === 403) options.onAuthFailure?.(failure);
  }

  async function request<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? QUERY_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (opts.rawBody) {
      headers['Content-Type'] = opts.rawBody.contentType;
      body = opts.rawBody.data;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }

    options.onRequestStart?.();
    try {
      let response: Response;
      try {
        response = await (options.fetch ?? fetch)(url(path, opts.query), {
          method: opts.method ?? 'GET',
          headers,
          body,
          credentials: 'same-origin',
          signal,
        });
      } catch (error) {
        if (timeout.aborted && !opts.signal?.aborted) throw new TimeoutError(timeoutMs);
        throw error;
      }
      let parsed: unknown;
      try {
        parsed = await readBody(response);
      } catch (error) {
        if (timeout.aborted && !opts.signal?.aborted) throw new TimeoutError(timeoutMs);
        throw error;
      }
      if (!response.ok) {
        const failure = new ApiError(response.status, asErrorBody(parsed), path);
        if (!opts.skipAuthCheck) reportFailure(failure);
        throw failure;
      }
      if (!opts.schema) return parsed as T;
      const result = opts.schema.safeParse(parsed);
      if (!result.success) throw new ResponseShapeError(path, result.error.issues);
      return result.data;
    } finally {
      options.onRequestEnd?.();
    }
  }

  return {
    request,
    url,
    reportFailure,
    configure(next) {
      Object.assign(options, next);
    },
  };
}

/** The console's client. The app wires the loader and the auth-failure check at start-up. */
export const api = createApiClient();
