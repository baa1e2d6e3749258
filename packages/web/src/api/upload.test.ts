import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './client';
import { ApiError, ResponseShapeError } from './errors';
import { isAbortError, uploadFile, type UploadProgress } from './upload';
import { startTestServer } from '../test/server';

const ZAnswer = z.object({ id: z.number() });
const state = { hold: null as Promise<void> | null };
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer({
    'POST /ok': async () => {
      if (state.hold) await state.hold;
      return { status: 201, body: { id: 5 } };
    },
    'POST /bad': () => ({ status: 400, body: { message: "Line 2, column 'CVE ID': not a CVE id." } }),
    'POST /odd': () => ({ status: 200, body: { name: 'no id' } }),
    'POST /expired': () => ({ status: 401, body: { message: 'Your session has expired.' } }),
    'POST /forbidden': () => ({ status: 403, body: { message: 'Forbidden.' } }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const file = () => new File(['a,b\n1,2\n'], 'scan.csv', { type: 'text/csv' });

describe('uploadFile', () => {
  it('posts the file as multipart with the query, reports progress up to the whole body, and parses the answer', async () => {
    const progress: UploadProgress[] = [];
    const answer = await uploadFile('/ok', {
      query: { o: 1, source: 'generic' },
      file: file(),
      schema: ZAnswer,
      onProgress: (p) => progress.push(p),
    });
    expect(answer).toEqual({ id: 5 });
    const request = server.requests.at(-1)!;
    expect(request.query.get('source')).toBe('generic');
    expect(request.body).toContain('filename="scan.csv"');
    expect(progress.at(-1)!.loaded).toBe(progress.at(-1)!.total);
    expect(progress.at(-1)!.total).toBeGreaterThan(file().size);
  });

  it('throws the server’s error body as an ApiError', async () => {
    const error = await uploadFile('/bad', { file: file(), schema: ZAnswer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toBe("Line 2, column 'CVE ID': not a CVE id.");
  });

  it('runs the client’s session check on a 401 or 403, as fetch-based calls do, and not on other errors', async () => {
    const failures: ApiError[] = [];
    api.configure({ onAuthFailure: (e) => failures.push(e) });
    try {
      for (const path of ['/expired', '/forbidden', '/bad']) {
        await expect(uploadFile(path, { file: file(), schema: ZAnswer })).rejects.toBeInstanceOf(ApiError);
      }
    } finally {
      api.configure({ onAuthFailure: undefined });
    }
    expect(failures.map((e) => [e.status, e.message])).toEqual([
      [401, 'Your session has expired.'],
      [403, 'Forbidden.'],
    ]);
  });

  it('refuses a 2xx body that does not match the schema', async () => {
    await expect(uploadFile('/odd', { file: file(), schema: ZAnswer })).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('stops when its signal aborts, with an AbortError', async () => {
    let release = () => undefined as void;
    state.hold = new Promise<void>((resolve) => (release = resolve));
    const controller = new AbortController();
    const pending = uploadFile('/ok', { file: file(), schema: ZAnswer, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    controller.abort();
    expect(isAbortError(await pending)).toBe(true);
    release();
    state.hold = null;
  });
});
