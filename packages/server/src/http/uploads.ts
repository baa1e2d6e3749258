import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from '../domain/errors';
import { TEXT_GUARD_MESSAGE, isUnstorableText } from './text-guard';

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

/** The upload's own answers, each a catalogue entry saying what the route takes. */
export type UploadTexts = {
  /** 415 for a request that is not multipart, e.g. `installers.not_multipart`. */
  notMultipart: 'installers.not_multipart' | 'host_imports.not_multipart' | 'batches.not_multipart';
  /** 400 for a form without a file, e.g. `installers.no_file`. */
  noFile: 'installers.no_file' | 'host_imports.no_file' | 'batches.no_file';
  /** The 413 answer for a file over the limit. */
  tooLarge: () => AppError;
};

/** The request's first file part, unread (the caller streams or buffers it; {@link isTooLarge} maps a 413 then). */
export async function firstFilePart(request: FastifyRequest, texts: UploadTexts): Promise<MultipartFile> {
  if (!request.isMultipart()) {
    throw new AppError(texts.notMultipart);
  }
  try {
    const part = await request.file();
    if (!part) throw new AppError(texts.noFile);
    // The edge text guard sees JSON bodies only; a file name is text a store may keep too.
    if (isUnstorableText(part.filename)) {
      part.file.resume();
      throw validationError({ file: [TEXT_GUARD_MESSAGE] });
    }
    return part;
  } catch (err) {
    if (isTooLarge(err)) throw texts.tooLarge();
    throw err;
  }
}

/**
 * The whole file part in memory, or the upload's 413. The parser's own `toBuffer()` checks the
 * cut only while chunks arrive, so a file whose last accepted chunk ends exactly at the limit
 * (browsers send 64 KiB chunks, and 1 MiB is 16 of them) came back cut short and was accepted;
 * `truncated` is final once the stream has ended, so it is checked then.
 */
export async function readWholeFile(part: MultipartFile, texts: Pick<UploadTexts, 'tooLarge'>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
  } catch (err) {
    if (isTooLarge(err)) throw texts.tooLarge();
    throw err;
  }
  if (part.file.truncated) throw texts.tooLarge();
  return Buffer.concat(chunks);
}

/** Whether an error is the multipart parser's "over the limit". */
export function isTooLarge(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 413;
}
