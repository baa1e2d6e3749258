import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { REPORT_SCHEDULE_TEXTS, type ReportScheduleBody } from '@patchwell/core/reports/schedules.schema';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../../test/render';
import { SCHEDULES_TEXTS } from '../schedules.texts';
import { ScheduleForm, splitRecipients, timezoneOptions } from './ScheduleForm';

const F = SCHEDULES_TEXTS.fields;

function renderForm(initial?: Parameters<typeof ScheduleForm>[0]['initial']) {
  const onSubmit = vi.fn<(body: ReportScheduleBody) => Promise<void>>().mockResolvedValue(undefined);
  renderAt(<ScheduleForm initial={initial} onSubmit={onSubmit} onCancel={() => undefined} />);
  return { onSubmit, user: userEvent.setup() };
}

const save = () => screen.getByRole('button', { name: SCHEDULES_TEXTS.save });

describe('ScheduleForm', () => {
  it('refuses an empty name and no recipients with the API’s messages, and sends nothing', async () => {
    const { onSubmit, user } = renderForm();
    await user.click(save());
    expect(await screen.findByText(REPORT_SCHEDULE_TEXTS.name)).toBeInTheDocument();
    expect(screen.getByText(REPORT_SCHEDULE_TEXTS.recipientsRequired)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('names the address that is not one, and a duplicate', async () => {
    const { onSubmit, user } = renderForm();
    await user.type(screen.getByLabelText(F.name, { exact: false }), 'Weekly prepatch');
    await user.type(
      screen.getByLabelText(F.recipients, { exact: false }),
      'ops@example.com{enter}not-an-address, OPS@example.com',
    );
    await user.click(save());
    expect(
      await screen.findByText(new RegExp(REPORT_SCHEDULE_TEXTS.recipientInvalid('not-an-address'))),
    ).toBeInTheDocument();
    expect(
      screen.getByText(new RegExp(REPORT_SCHEDULE_TEXTS.recipientDuplicate('ops@example.com'))),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks for the day of the month when monthly, and sends a normalised schedule', async () => {
    const { onSubmit, user } = renderForm();
    expect(screen.getByLabelText(F.dayOfWeek)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(F.frequency), 'monthly');
    expect(screen.queryByLabelText(F.dayOfWeek)).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(F.dayOfMonth, { exact: false }), '31');
    await user.selectOptions(screen.getByLabelText(F.kind), 'needs_attention');
    await user.type(screen.getByLabelText(F.name, { exact: false }), 'Month end');
    await user.type(screen.getByLabelText(F.recipients, { exact: false }), ' CTO@Example.com ; ops@example.com ');
    await user.click(save());
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      name: 'Month end',
      kind: 'needs_attention',
      frequency: 'monthly',
      day_of_month: 31,
      day_of_week: null,
      time: '08:00',
      recipients: ['cto@example.com', 'ops@example.com'],
      enabled: true,
    });
  });

  it('refuses a time that is not HH:MM', async () => {
    const { onSubmit, user } = renderForm({
      id: 4,
      name: 'Daily',
      kind: 'prepatch',
      frequency: 'daily',
      day_of_week: null,
      day_of_month: null,
      time: '08:00',
      timezone: 'Europe/Paris',
      recipients: ['ops@example.com'],
      enabled: true,
      created_by: null,
      created_at: '2026-03-01T00:00:00Z',
      updated_at: '2026-03-01T00:00:00Z',
      next_due_at: null,
      last_sent_at: null,
      last_error: null,
    });
    const time = screen.getByLabelText(/^Time(?!zone)/);
    await user.clear(time);
    await user.click(save());
    expect(await screen.findByText(REPORT_SCHEDULE_TEXTS.time)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('form helpers', () => {
  it('splits recipients on lines, commas and semicolons', () => {
    expect(splitRecipients('a@x.test\n b@x.test, c@x.test;;\n')).toEqual(['a@x.test', 'b@x.test', 'c@x.test']);
  });

  it('offers IANA timezones with UTC first', () => {
    const zones = timezoneOptions();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Paris');
  });
});
