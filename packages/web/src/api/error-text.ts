import { errorMessages, errorSnackbarText } from '@patchwell/core/shell/errors';
import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { ApiError, TimeoutError } from './errors';

/** The snackbar text for any failure: 'Error: ' plus the server's errors or message, else the generic text. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) return errorSnackbarText(error.body);
  if (error instanceof TimeoutError) return `Error: ${error.message}`;
  return BASE_TEXTS.generic.unexpected;
}

/** The message of a failed upload, for showing under the file field: the server's errors or message, else the generic text. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError) return errorMessages(error.body) || error.message;
  return BASE_TEXTS.generic.unexpected;
}
