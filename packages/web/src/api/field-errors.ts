import { TEXTS } from '@patchwell/core/texts';
import { ApiError } from './errors';

/**
 * Field errors of a 400/409 body (`errors: { field: [messages] }`), keyed by the form's
 * field path. Server keys like `zones[1].role_id` or `zones/1/role_id` become
 * `zones.1.role_id`, the path react-hook-form uses.
 */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.body) return {};
  const errors = error.body.errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
    const list = Array.isArray(value) ? value : [value];
    const messages = list.filter((v): v is string => typeof v === 'string');
    if (!messages.length) continue;
    const path = key
      .replace(/^body[./]/, '')
      .replace(/\[(\d+)\]/g, '.$1')
      .replace(/\//g, '.');
    out[path] = messages.join(' ');
  }
  return out;
}

/** 'Error: ' plus the first message the server sent (spec A section 8, zone creation). */
export function firstErrorText(error: unknown): string {
  if (error instanceof ApiError && error.body) {
    const first = Object.values(serverFieldErrors(error))[0];
    const errors = error.body.errors;
    const fromList = Array.isArray(errors) && typeof errors[0] === 'string' ? errors[0] : undefined;
    const fromString = typeof errors === 'string' ? errors : undefined;
    const message = first ?? fromList ?? fromString ?? error.body.message;
    if (message) return `Error: ${message}`;
  }
  return TEXTS.generic.unexpected;
}
