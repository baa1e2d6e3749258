import { BASE_TEXTS } from '@patchwell/core/texts.base';

/** The error body the API sends: `{ code?, message?, errors? }` (spec A section 8). */
export type ApiErrorBody = { code?: string; message?: string; errors?: unknown } & Record<string, unknown>;

/** A response with a non-2xx status. `body` is the parsed JSON error body, or null. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly body: ApiErrorBody | null;
  readonly path: string;

  constructor(status: number, body: ApiErrorBody | null, path: string) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.status = status;
    this.body = body;
    this.path = path;
  }

  get code(): string | undefined {
    return this.body?.code;
  }
}

/** A request that took longer than its timeout (spec A section 7). */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(BASE_TEXTS.generic.timedOut(timeoutMs));
    this.timeoutMs = timeoutMs;
  }
}

/** A 2xx response whose body did not match the schema the console expects. */
export class ResponseShapeError extends Error {
  override readonly name = 'ResponseShapeError';
  readonly path: string;
  readonly issues: unknown;

  constructor(path: string, issues: unknown) {
    super(`Unexpected response from ${path}`);
    this.path = path;
    this.issues = issues;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}
