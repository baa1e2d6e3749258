import { uploadFileNameError } from '@patchwell/core/remediation/upload-file-name';
import { UPLOAD_TEXTS as T } from '../tasks.texts';

/**
 * The checks made before a scan is uploaded (spec B section 5): a CSV file, named by the
 * spec's rule, not empty and within the size limit. The server checks them again; this
 * saves uploading 30 MB to learn the name has a space. Returns the message, or null.
 */
export function verifyScanFile(file: File, maxBytes: number): string | null {
  if (!/\.csv$/i.test(file.name)) return T.notCsv;
  const nameError = uploadFileNameError(file.name);
  if (nameError) return nameError;
  if (file.size === 0) return T.empty;
  if (file.size > maxBytes) return T.tooLarge(Math.round(maxBytes / (1024 * 1024)));
  return null;
}
