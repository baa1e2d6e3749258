import type { ZodType } from 'zod';
import { api, type QueryValue } from './client';
import { ApiError, ResponseShapeError, type ApiErrorBody } from './errors';

export type UploadProgress = { loaded: number; total: number };

export type UploadOptions<T> = {
  query?: Record<string, QueryValue>;
  file: File;
  /** The multipart field holding the file. */
  field?: string;
  schema: ZodType<T>;
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting rejects with a DOMException named AbortError. */
  signal?: AbortSignal;
};

function parseBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return null;
  if ((xhr.getResponseHeader('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }
  return text;
}

/**
 * POST one file as multipart/form-data with upload progress and cancel (spec B section 7:
 * the scanner upload "reports progress" and "is cancelable"). fetch reports no upload
 * progress, so this is XMLHttpRequest; it bypasses the api client's fetch on purpose, so the
 * global loader does not count it (the dialog shows its own progress), but a 401 or 403 runs
 * the client's session check like any other call. Errors are the client's:
 * ApiError with the server's body, ResponseShapeError for an unexpected 2xx body.
 */
export function uploadFile<T>(
  path: string,
  { query, file, field = 'file', schema, onProgress, signal }: UploadOptions<T>,
) {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was canceled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', api.url(path, query).toString());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    });
    xhr.addEventListener('load', () => {
      done();
      const body = parseBody(xhr);
      if (xhr.status < 200 || xhr.status >= 300) {
        const errorBody: ApiErrorBody | null =
          body && typeof body === 'object' && !Array.isArray(body)
            ? (body as ApiErrorBody)
            : typeof body === 'string' && body
              ? { message: body }
              : null;
        const failure = new ApiError(xhr.status, errorBody, path);
        // A session that ended while the dialog was open: the same check as any fetch call.
        api.reportFailure(failure);
        reject(failure);
        return;
      }
      const result = schema.safeParse(body);
      if (result.success) resolve(result.data);
      else reject(new ResponseShapeError(path, result.error.issues));
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new TypeError('The upload failed: the server could not be reached.'));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(new DOMException('The upload was canceled.', 'AbortError'));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    const form = new FormData();
    form.append(field, file, file.name);
    xhr.send(form);
  });
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
