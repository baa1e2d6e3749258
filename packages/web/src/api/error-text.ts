import { errorSnackbarText } from '@patchwell/core/shell/errors';
import { TEXTS } from '@patchwell/core/texts';
import { ApiError, TimeoutError } from './errors';

/** The snackbar text for any failure: 'Error: ' plus the server's errors or message, else the generic text. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return errorSnackbarText(error.body);
  if (error instanceof TimeoutError) return `Error: ${error.message}`;
  return TEXTS.generic.unexpected;
}
