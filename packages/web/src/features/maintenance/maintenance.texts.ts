import { MAINTENANCE_WINDOW_TEXTS } from '@patchwell/core/maintenance/maintenance-windows.schema';

/** The maintenance windows page's words (the validation texts are core's, shared with the API). */
export const MAINTENANCE_TEXTS = {
  title: 'Maintenance Windows',
  description:
    'Devices start policy runs and remediation tasks only inside a window of their group; work due outside waits for the next window. Groups without a window run at any time.',
  create: 'Create Window',
  edit: 'Edit Window',
  delete: 'Delete',
  deleteTitle: 'Delete maintenance window',
  deleteBody: MAINTENANCE_WINDOW_TEXTS.deleteConfirm,
  deleted: 'Maintenance window deleted.',
  saved: 'Maintenance window saved.',
  empty: MAINTENANCE_WINDOW_TEXTS.empty,
  name: 'Name',
  group: 'Device group',
  schedule: 'Schedule',
  timezone: 'Timezone',
  next: 'Next window',
  none: 'None',
  /** The device details' fact. */
  deviceNext: 'Next maintenance window',
  deviceNone: 'None',
  openNow: 'Open now',
  kind: 'Repeats',
  startsAt: 'Starts',
  endsAt: 'Ends',
  days: 'Days',
  dayOfMonth: 'Day of the month',
  dayOfMonthHint: 'The month’s last day when it has fewer.',
  startTime: 'Start time (HH:MM)',
  duration: 'Duration (minutes)',
  durationHint: 'From 1 minute to 7 days (10080 minutes).',
  weekdays: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
  weekdayNames: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
} as const;
