import { isPathLikeName } from '../rules/datetime';
import { TEXTS } from '../texts';

/**
 * The spec's rule for uploaded file names (B section 5): no spaces, only letters, digits
 * and `_ - . ~`. The console checks it before uploading; the server checks it again.
 * Returns the spec's message when `name` breaks the rule, else null.
 */
export function uploadFileNameError(name: string): string | null {
  return isPathLikeName(name) ? null : TEXTS.uploads.fileNameRule;
}
