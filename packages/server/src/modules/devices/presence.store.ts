import { sql, type SQL } from 'drizzle-orm';
import { devicePresence } from '../../db/devices.schema';

/** Seconds after a missed check-in before a device counts as offline. */
export const ONLINE_GRACE_S = 90;

/**
 * SQL: the device is online at `now`, its presence row's `online_until` still ahead. The
 * query joins `device_presence` (left, for devices that never checked in: offline).
 */
export function onlineAt(now: Date): SQL<boolean> {
  return sql<boolean>`coalesce(${devicePresence.onlineUntil} > ${now.toISOString()}::timestamptz, false)`;
}

/** What a device's page and list rows show of its presence, for a select with the left join. */
export function presenceFields(now: Date) {
  return {
    isOnline: onlineAt(now),
    lastSeenAt: devicePresence.lastSeenAt,
    uptimeS: devicePresence.uptimeS,
  };
}
