import type { MaintenanceSchedule } from '@patchwell/core/maintenance/maintenance-windows.schema';
import { MAINTENANCE_TEXTS } from './maintenance.texts';

/** Minutes as "4 h", "90 min", "1 h 30 min". */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/** A window's schedule in one line: "Mon, Fri at 22:00 for 4 h", "Day 31 at 01:00 for 2 h", or its start → end. */
export function scheduleText(s: MaintenanceSchedule): string {
  if (s.kind === 'one_off') return `${s.starts_at.replace('T', ' ')} → ${s.ends_at.replace('T', ' ')}`;
  const when =
    s.kind === 'weekly'
      ? s.days.map((d) => MAINTENANCE_TEXTS.weekdays[d - 1]).join(', ')
      : `Day ${s.day_of_month} of each month`;
  return `${when} at ${s.start_time} for ${durationText(s.duration_minutes)}`;
}
