import { REPORT_SCHEDULE_KIND_LABELS } from '@patchwell/core/reports/schedules.schema';

/** Console texts of the scheduled reports (the spec leaves their wording to us). */
export const SCHEDULES_TEXTS = {
  title: 'Scheduled Reports',
  intro:
    'Mail a report’s CSV with a short summary to people, daily, weekly or monthly at a time in a timezone. ' +
    'Each due time is sent once.',
  create: 'New schedule',
  createTitle: 'New scheduled report',
  editTitle: 'Change scheduled report',
  save: 'Save',
  cancel: 'Cancel',
  edit: 'Edit',
  sendNow: 'Send now',
  history: 'Last sends',
  delete: 'Delete',
  deleteTitle: 'Delete this scheduled report?',
  deleteMessage: (name: string) => `“${name}” will not be sent again. Its send history is deleted with it.`,
  deleted: 'Scheduled report deleted.',
  saved: 'Scheduled report saved.',
  sentNow: (status: string) =>
    status === 'sent'
      ? 'The report was sent.'
      : status === 'queued'
        ? 'No mail relay is configured: the report waits in the outbox.'
        : 'Sending failed; it will be tried again.',
  none: 'No scheduled reports yet.',
  noSends: 'Not sent yet.',
  tableLabel: 'Scheduled reports',
  sendsLabel: (name: string) => `Last sends of ${name}`,
  actionsOf: (name: string) => `Actions for ${name}`,
  fields: {
    name: 'Name',
    kind: 'Report',
    frequency: 'Frequency',
    dayOfWeek: 'Day of the week',
    dayOfMonth: 'Day of the month',
    dayOfMonthHint: 'A shorter month sends on its last day.',
    time: 'Time',
    timezone: 'Timezone',
    recipients: 'Recipients',
    recipientsHint: 'One e-mail address per line (or separated by commas), up to 50.',
    enabled: 'Enabled',
  },
  columns: {
    name: 'Name',
    report: 'Report',
    when: 'When',
    recipients: 'Recipients',
    next: 'Next',
    last: 'Last sent',
    actions: 'Actions',
    due: 'Due',
    status: 'Status',
    rows: 'Rows',
    error: 'Error',
  },
  kinds: REPORT_SCHEDULE_KIND_LABELS,
  frequencies: { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' },
  weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  statuses: { pending: 'Pending', sending: 'Sending', sent: 'Sent', failed: 'Failed', queued: 'In outbox' },
  manual: 'Send now',
  disabled: 'Disabled',
  when: (s: {
    frequency: string;
    day_of_week: number | null;
    day_of_month: number | null;
    time: string;
    timezone: string;
  }) => {
    const at = `${s.time} ${s.timezone}`;
    if (s.frequency === 'weekly') return `${SCHEDULES_TEXTS.weekdays[(s.day_of_week ?? 1) - 1]}s at ${at}`;
    if (s.frequency === 'monthly') return `Day ${s.day_of_month} of each month at ${at}`;
    return `Daily at ${at}`;
  },
} as const;
