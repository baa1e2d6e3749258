import { z } from 'zod';
import { BASE_TEXTS } from '../texts.base';

/**
 * The error body every API error uses. `errors` takes each of the shapes the console's
 * snackbar understands (spec A section 8); 400s use the object of lists, one entry per
 * invalid field. `code` is a stable machine-readable id.
 */
export const ZApiError = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  errors: z
    .union([
      z.string(),
      z.array(z.string()),
      z.array(z.object({ errors: z.array(z.string()) }).loose()),
      z.record(z.string(), z.array(z.string())),
    ])
    .optional(),
});
export type ApiError = z.infer<typeof ZApiError>;

function collect(errors: unknown): string[] {
  if (typeof errors === 'string') return [errors];
  if (Array.isArray(errors)) {
    return errors.flatMap((e) => {
      if (typeof e === 'string') return [e];
      if (e && typeof e === 'object' && 'errors' in e) return collect((e as { errors: unknown }).errors);
      return [];
    });
  }
  if (errors && typeof errors === 'object') return Object.values(errors).flatMap(collect);
  return [];
}

/** The messages of an error body, joined by newlines; empty when there are none. */
export function errorMessages(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const b = body as { errors?: unknown; message?: unknown };
  const lines = collect(b.errors);
  if (lines.length) return lines.join('\n');
  return typeof b.message === 'string' ? b.message : '';
}

/** Snackbar text for a failed call: 'Error: ' plus the server's errors or message, else the generic text. */
export function errorSnackbarText(body: unknown): string {
  const text = errorMessages(body);
  return text ? `Error: ${text}` : BASE_TEXTS.generic.unexpected;
}
