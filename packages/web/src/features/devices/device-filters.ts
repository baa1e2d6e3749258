/** The device table's filters, named as `GET /api/servers` reads them. */
export const DEVICE_FILTERS = [
  'search',
  'group',
  'os_family',
  'status',
  'needs_reboot',
  'compliance',
  'tag',
  'critical_older_than',
] as const;
export type DeviceFilter = (typeof DEVICE_FILTERS)[number];

/**
 * Sortable columns and the `sort` field each sends (core's DEVICE_SORT_FIELDS). Status is
 * not among the server's sort fields, so its column does not sort.
 */
export const DEVICE_SORT_FIELDS = {
  name: 'name',
  os: 'os_name',
  group: 'group_name',
  lastSeen: 'last_seen_at',
  pendingPatches: 'pending_patches',
  compliance: 'compliance',
} as const;
