import type { ActivityDetails } from './activity.schema';

const MAX_VALUE = 80;

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/**
 * An event's details in one line, as the log's table and CSV show them: the changed fields
 * (`name: Old → New`), then the other facts (`devices: 12`).
 */
export function summarizeActivity(details: ActivityDetails): string {
  const parts: string[] = [];
  for (const [field, change] of Object.entries(details.changes ?? {})) {
    parts.push(`${field}: ${show(change.from)} → ${show(change.to)}`);
  }
  for (const [key, value] of Object.entries(details)) {
    if (key === 'changes' || value === undefined) continue;
    parts.push(`${key}: ${show(value)}`);
  }
  return parts.join('; ');
}
