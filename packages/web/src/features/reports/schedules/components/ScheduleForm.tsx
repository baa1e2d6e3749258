import { Button, Group, NativeSelect, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  REPORT_SCHEDULE_FREQUENCIES,
  REPORT_SCHEDULE_KINDS,
  ZReportScheduleBody,
  type ReportSchedule,
  type ReportScheduleBody,
  type ReportScheduleFrequency,
  type ReportScheduleKind,
} from '@patchwell/core/reports/schedules.schema';
import { useMemo, useState } from 'react';
import { isApiError } from '../../../../api/errors';
import { serverFieldErrors } from '../../../../api/field-errors';
import { notify } from '../../../../ui/notify';
import { SCHEDULES_TEXTS } from '../schedules.texts';

const T = SCHEDULES_TEXTS;
const F = T.fields;

/** The runtime's IANA timezones (the server checks the name against the same tzdata), UTC first. */
export function timezoneOptions(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Addresses typed one per line or separated by commas or semicolons. */
export const splitRecipients = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

export type ScheduleFormProps = {
  /** The schedule being changed; a new one without. */
  initial?: ReportSchedule;
  onSubmit: (body: ReportScheduleBody) => Promise<void>;
  onCancel: () => void;
};

/**
 * A schedule's form: report, frequency and its day, time, timezone, recipients. Checked with
 * the API's own schema before sending, so the messages are the server's.
 */
export function ScheduleForm({ initial, onSubmit, onCancel }: ScheduleFormProps) {
  const [name, setName] = useState(initial?.name ?? '');
  const [kind, setKind] = useState<ReportScheduleKind>(initial?.kind ?? 'prepatch');
  const [frequency, setFrequency] = useState<ReportScheduleFrequency>(initial?.frequency ?? 'weekly');
  const [dayOfWeek, setDayOfWeek] = useState(String(initial?.day_of_week ?? 1));
  const [dayOfMonth, setDayOfMonth] = useState(String(initial?.day_of_month ?? 1));
  const [time, setTime] = useState(initial?.time ?? '08:00');
  const [timezone, setTimezone] = useState<string>(initial?.timezone ?? browserTimezone());
  const [recipients, setRecipients] = useState((initial?.recipients ?? []).join('\n'));
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSaving, setSaving] = useState(false);
  const timezones = useMemo(() => timezoneOptions(), []);

  const onFormSubmit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ZReportScheduleBody.safeParse({
      name,
      kind,
      frequency,
      day_of_week: frequency === 'weekly' ? Number(dayOfWeek) : null,
      day_of_month: frequency === 'monthly' ? Number(dayOfMonth) : null,
      time,
      timezone,
      recipients: splitRecipients(recipients),
      enabled,
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'name');
        found[field] = found[field] ? `${found[field]} ${issue.message}` : issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      if (isApiError(error, 400)) setErrors(serverFieldErrors(error));
      else await notify.apiError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void onFormSubmit(e)} aria-label={initial ? T.editTitle : T.createTitle} noValidate>
      <Stack gap="sm">
        <TextInput
          label={F.name}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          required
        />
        <NativeSelect
          label={F.kind}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as ReportScheduleKind)}
          data={REPORT_SCHEDULE_KINDS.map((k) => ({ value: k, label: T.kinds[k] }))}
          error={errors.kind}
        />
        <Group grow align="flex-start">
          <NativeSelect
            label={F.frequency}
            value={frequency}
            onChange={(e) => setFrequency(e.currentTarget.value as ReportScheduleFrequency)}
            data={REPORT_SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: T.frequencies[f] }))}
            error={errors.frequency}
          />
          {frequency === 'weekly' && (
            <NativeSelect
              label={F.dayOfWeek}
              value={dayOfWeek}
              onChange={(e) => setDayOfWeek(e.currentTarget.value)}
              data={T.weekdays.map((d, i) => ({ value: String(i + 1), label: d }))}
              error={errors.day_of_week}
            />
          )}
          {frequency === 'monthly' && (
            <NativeSelect
              label={F.dayOfMonth}
              description={F.dayOfMonthHint}
              value={dayOfMonth}
              onChange={(e) => setDayOfMonth(e.currentTarget.value)}
              data={Array.from({ length: 31 }, (_, i) => String(i + 1))}
              error={errors.day_of_month}
            />
          )}
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label={F.time}
            type="time"
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
            error={errors.time}
            required
          />
          <Select
            label={F.timezone}
            searchable
            value={timezone}
            onChange={(v) => setTimezone(v ?? '')}
            data={timezones}
            limit={50}
            error={errors.timezone}
            required
          />
        </Group>
        <Textarea
          label={F.recipients}
          description={F.recipientsHint}
          rows={4}
          value={recipients}
          onChange={(e) => setRecipients(e.currentTarget.value)}
          error={errors.recipients}
          required
        />
        <Switch label={F.enabled} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {T.cancel}
          </Button>
          <Button type="submit" loading={isSaving}>
            {T.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
