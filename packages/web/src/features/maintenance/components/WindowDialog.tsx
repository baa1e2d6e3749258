import {
  MAINTENANCE_WINDOW_KIND_LABELS,
  MAINTENANCE_WINDOW_KINDS,
  ZMaintenanceWindowBody,
  type MaintenanceSchedule,
  type MaintenanceWindow,
  type MaintenanceWindowKind,
} from '@patchwell/core/maintenance/maintenance-windows.schema';
import { Button, Checkbox, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { CONSOLE_TEXTS } from '../../../texts';
import { notify } from '../../../ui/notify';
import { timezoneOptions } from '../../reports/schedules/components/ScheduleForm';
import { createMaintenanceWindow, updateMaintenanceWindow } from '../maintenance.api';
import { MAINTENANCE_TEXTS as T } from '../maintenance.texts';

export type WindowDialogProps = {
  opened: boolean;
  zoneId: number;
  groups: { id: number; name: string }[];
  /** The window to edit; none: create one. */
  window?: MaintenanceWindow;
  onClose: () => void;
  onSaved: () => void;
};

/** Creates or edits a maintenance window: its group, timezone and one-off or recurring schedule. */
export function WindowDialog(props: WindowDialogProps) {
  const { opened, window, onClose } = props;
  // The body mounts on each opening, so its fields start from the window being edited.
  return (
    <Modal opened={opened} onClose={onClose} title={window ? T.edit : T.create} size="lg">
      {opened && <WindowDialogBody {...props} />}
    </Modal>
  );
}

type Errors = Partial<Record<string, string>>;

const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function WindowDialogBody({ zoneId, groups, window, onClose, onSaved }: WindowDialogProps) {
  const s = window?.schedule;
  const [name, setName] = useState(window?.name ?? '');
  const [groupId, setGroupId] = useState(String(window?.server_group_id ?? groups[0]?.id ?? ''));
  const [timezone, setTimezone] = useState(window?.timezone ?? browserTimezone());
  const [kind, setKind] = useState<MaintenanceWindowKind>(s?.kind ?? 'weekly');
  const [startsAt, setStartsAt] = useState(s?.kind === 'one_off' ? s.starts_at : '');
  const [endsAt, setEndsAt] = useState(s?.kind === 'one_off' ? s.ends_at : '');
  const [days, setDays] = useState<string[]>(s?.kind === 'weekly' ? s.days.map(String) : []);
  const [dayOfMonth, setDayOfMonth] = useState(s?.kind === 'monthly' ? String(s.day_of_month) : '1');
  const [startTime, setStartTime] = useState(s && s.kind !== 'one_off' ? s.start_time : '22:00');
  const [duration, setDuration] = useState(s && s.kind !== 'one_off' ? String(s.duration_minutes) : '240');
  const [errors, setErrors] = useState<Errors>({});
  const [isSaving, setSaving] = useState(false);
  const timezones = useMemo(() => timezoneOptions(), []);

  const schedule = (): MaintenanceSchedule | Record<string, unknown> => {
    if (kind === 'one_off') return { kind, starts_at: startsAt, ends_at: endsAt };
    const common = { start_time: startTime, duration_minutes: Number(duration) };
    return kind === 'weekly'
      ? { kind, days: days.map(Number).sort((a, b) => a - b), ...common }
      : { kind, day_of_month: Number(dayOfMonth), ...common };
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZMaintenanceWindowBody.safeParse({
      name,
      server_group_id: Number(groupId),
      timezone,
      schedule: schedule(),
    });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.join('.');
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setSaving(true);
    try {
      if (window) await updateMaintenanceWindow(zoneId, window.id, parsed.data);
      else await createMaintenanceWindow(zoneId, parsed.data);
      notify.success(T.saved);
      onSaved();
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (Object.keys(fields).length) setErrors(fields);
      else notify.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="md">
        <TextInput
          label={T.name}
          required
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
        />
        <NativeSelect
          label={T.group}
          value={groupId}
          onChange={(e) => setGroupId(e.currentTarget.value)}
          data={groups.map((g) => ({ value: String(g.id), label: g.name }))}
          error={errors.server_group_id}
        />
        <NativeSelect
          label={T.timezone}
          value={timezone}
          onChange={(e) => setTimezone(e.currentTarget.value)}
          data={timezones.includes(timezone) ? timezones : [timezone, ...timezones]}
          error={errors.timezone}
        />
        <NativeSelect
          label={T.kind}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as MaintenanceWindowKind)}
          data={MAINTENANCE_WINDOW_KINDS.map((k) => ({ value: k, label: MAINTENANCE_WINDOW_KIND_LABELS[k] }))}
        />
        {kind === 'one_off' ? (
          <Group grow align="flex-start">
            <TextInput
              type="datetime-local"
              label={T.startsAt}
              value={startsAt}
              onChange={(e) => setStartsAt(e.currentTarget.value)}
              error={errors['schedule.starts_at']}
            />
            <TextInput
              type="datetime-local"
              label={T.endsAt}
              value={endsAt}
              onChange={(e) => setEndsAt(e.currentTarget.value)}
              error={errors['schedule.ends_at']}
            />
          </Group>
        ) : (
          <>
            {kind === 'weekly' ? (
              <Checkbox.Group label={T.days} value={days} onChange={setDays} error={errors['schedule.days']}>
                <Group gap="sm" mt={6}>
                  {T.weekdays.map((label, i) => (
                    <Checkbox key={label} value={String(i + 1)} label={label} aria-label={T.weekdayNames[i]} />
                  ))}
                </Group>
              </Checkbox.Group>
            ) : (
              <TextInput
                label={T.dayOfMonth}
                description={T.dayOfMonthHint}
                inputMode="numeric"
                value={dayOfMonth}
                onChange={(e) => setDayOfMonth(e.currentTarget.value)}
                error={errors['schedule.day_of_month']}
              />
            )}
            <Group grow align="flex-start">
              <TextInput
                label={T.startTime}
                value={startTime}
                onChange={(e) => setStartTime(e.currentTarget.value)}
                error={errors['schedule.start_time']}
              />
              <TextInput
                label={T.duration}
                description={T.durationHint}
                inputMode="numeric"
                value={duration}
                onChange={(e) => setDuration(e.currentTarget.value)}
                error={errors['schedule.duration_minutes']}
              />
            </Group>
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {CONSOLE_TEXTS.common.cancel}
          </Button>
          <Button type="submit" loading={isSaving}>
            {window ? CONSOLE_TEXTS.common.save : T.create}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
