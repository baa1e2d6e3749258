import { nextRun, policyScheduleTz } from '@patchwell/core/policies/schedule';
import { SCHEDULE_TIMEZONES } from '@patchwell/core/policies/timezones';
import { isValidTime } from '@patchwell/core/rules/datetime';
import { NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { formatUtc } from '../../../ui/format-date';
import { SwitchField } from './SwitchField';
import { POLICY_TEXTS as T } from '../policies.texts';
import { DEVICE_LOCAL_TIME, type PolicyControl, type PolicyFormValues } from '../policy-form';
import { BitmaskCheckboxes } from './BitmaskCheckboxes';

export type ScheduleEditorProps = {
  control: PolicyControl;
  register: UseFormRegister<PolicyFormValues>;
  errors: FieldErrors<PolicyFormValues>;
};

const TIMEZONE_OPTIONS = [
  { value: DEVICE_LOCAL_TIME, label: T.deviceLocalTime },
  ...SCHEDULE_TIMEZONES.map((tz) => ({ value: tz, label: tz })),
];

/** The browser's zone, to preview a schedule that runs in each device's local time. */
function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Days (Mon–Sun), weeks of the month (1st–5th) and months (Jan–Dec) as the spec's bitmasks,
 * a 24-hour time and one of the 38 timezones or each device's local time; the next run is
 * computed with core's schedule rules as the server's scheduler does.
 */
export function ScheduleEditor({ control, register, errors }: ScheduleEditorProps) {
  const schedule = useWatch({
    control,
    name: ['is_scheduled', 'schedule_days', 'schedule_weeks_of_month', 'schedule_months', 'schedule_time', 'timezone'],
  });
  const [isScheduled, days, weeks, months, time, timezone] = schedule;
  // Fixed for the page's life: the preview should not tick while the user edits.
  const [now] = useState(() => new Date());
  const isLocal = timezone === DEVICE_LOCAL_TIME;
  let preview: string = T.onDemand;
  if (isScheduled && isValidTime(time)) {
    const tz = policyScheduleTz(
      { use_scheduled_timezone: !isLocal, scheduled_timezone: isLocal ? null : timezone },
      browserZone(),
    );
    const next = nextRun(
      { schedule_days: days, schedule_weeks_of_month: weeks, schedule_months: months, schedule_time: time },
      now,
      tz,
    );
    preview = next ? (isLocal ? T.nextRunLocal : T.nextRunPreview)(formatUtc(next.toISOString())) : T.nextRunNever;
  }

  return (
    <Stack gap="sm">
      <Title order={2} fz="h4">
        {T.schedule}
      </Title>
      <SwitchField control={control} name="is_scheduled" label={T.scheduled} description={T.scheduledDescription} />
      {isScheduled && (
        <>
          <Controller
            control={control}
            name="schedule_days"
            render={({ field }) => (
              <BitmaskCheckboxes
                legend={T.days}
                labels={T.dayLabels}
                names={T.dayNames}
                value={field.value}
                onChange={field.onChange}
                error={errors.schedule_days?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="schedule_weeks_of_month"
            render={({ field }) => (
              <BitmaskCheckboxes
                legend={T.weeks}
                labels={T.weekLabels}
                value={field.value}
                onChange={field.onChange}
                error={errors.schedule_weeks_of_month?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="schedule_months"
            render={({ field }) => (
              <BitmaskCheckboxes
                legend={T.months}
                labels={T.monthLabels}
                names={T.monthNames}
                value={field.value}
                onChange={field.onChange}
                error={errors.schedule_months?.message}
              />
            )}
          />
          <TextInput
            label={T.time}
            placeholder="HH:mm"
            maw={200}
            {...register('schedule_time')}
            error={errors.schedule_time?.message}
          />
          <NativeSelect label={T.timezone} maw={320} data={TIMEZONE_OPTIONS} {...register('timezone')} />
        </>
      )}
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {preview}
      </Text>
    </Stack>
  );
}
