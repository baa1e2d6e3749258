import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors';

/**
 * Single-file uploads (multipart/form-data), as the routes that take one file share them:
 * parsing registered in the route's own plugin scope (the rest of the API stays JSON), and
 * the same answers for a request that is not multipart, one without a file, and a file over
 * the limit.
 */

/** Registers multipart parsing in `scope`: one file of at most `fileSize` bytes, a few small fields. */
export async function registerSingleFileUploads(scope: FastifyInstance, fileSize: number): Promise<void> {
  // Forms often send a field or two with the file; nothing else is accepted.
  await scope.register(multipart, {
    limits: { fileSize, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
  });
}

export type UploadTexts = {
  /** Error code prefix, e.g. `installers` (`installers.not_multipart`, `installers.no_file`). */
  code: string;
  /** What to upload, e.g. "the installer". */
  upload: string;
  /** What to choose, e.g. "an installer file". */
  choose: string;
  /** The 413 answer for a file over the limit. */
  tooLarge: () => AppError;
};

/** The request's first file part, unread (the caller streams or buffers it; {@link isTooLarge} maps a 413 then). */
export async function firstFilePart(request: FastifyRequest, texts: UploadTexts): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    throw new AppError(
      `${texts.code}.not_multipart`,
      415,
      `Upload ${texts.upload} as multipart/form-data (a form with one file field).`,
    );
  }
  try {
    const part = await request.file();
    if (!part) throw new AppError(`${texts.code}.no_file`, 400, `Choose ${texts.choose} to upload.`);
    return part;
  } catch (err) {
    if (isTooLarge(err)) throw texts.tooLarge();
    throw err;
  }
}

/** Whether an error is the multipart parser's "over the limit". */
export function isTooLarge(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 413;
}
