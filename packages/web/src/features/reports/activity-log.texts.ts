import type { DateRangePreset } from '@patchwell/core/activity/activity.schema';

/** Console texts of the activity log report (/reports/activity-log). */
export const ACTIVITY_LOG_TEXTS = {
  title: 'Activity Log',
  intro: 'Every change made in this zone, by people, API keys and devices, newest first. Times are UTC.',
  filters: 'Activity log filters',
  dateRange: 'Date range',
  presets: {
    last30days: 'Last 30 days',
    last7days: 'Last 7 days',
    yesterday: 'Yesterday',
    today: 'Today',
    custom: 'Custom range',
  } satisfies Record<DateRangePreset, string>,
  startDate: 'Start date',
  endDate: 'End date',
  user: 'User',
  anyone: 'Anyone',
  type: 'Type',
  anyType: 'Any type',
  objectFilter: (type: string, id: string) => `Only ${type} ${id}`,
  clearObject: 'Show every object',
  clearFilters: 'Clear filters',
  exportCsv: 'Export CSV',
  tableLabel: 'Activity log',
  time: 'Time',
  who: 'Who',
  action: 'Action',
  object: 'Object',
  summary: 'Summary',
  clientAddress: 'Client address',
  system: 'System',
  via: { session: 'Console', api_key: 'API key', agent: 'Agent', system: 'System' } as Record<string, string>,
  empty: 'No activity matches these filters.',
  fixDates: 'Choose a valid date range to see the activity.',
  capped: (n: string) =>
    `More than ${n} events match: the pages show the newest ${n}. Narrow the filters, or export the CSV to get them all.`,
} as const;

/** The action families the type filter offers (the prefix before the dot). */
export const ACTIVITY_TYPES: { value: string; label: string }[] = [
  { value: 'auth', label: 'Sign-in and sign-out' },
  { value: 'account', label: 'Account' },
  { value: 'zone', label: 'Zone settings' },
  { value: 'user', label: 'Users' },
  { value: 'invitation', label: 'Invitations' },
  { value: 'api_key', label: 'API keys' },
  { value: 'device', label: 'Device actions' },
  { value: 'agent', label: 'Device outcomes' },
  { value: 'group', label: 'Groups' },
  { value: 'host_import', label: 'Host imports' },
  { value: 'policy', label: 'Policies and runs' },
  { value: 'approval', label: 'Approvals' },
  { value: 'installer', label: 'Installers' },
  { value: 'task', label: 'Remediation tasks' },
];
