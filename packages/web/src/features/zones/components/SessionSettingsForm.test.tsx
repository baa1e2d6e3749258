import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render';
import { ZSessionTimeForm, toSessionTimeInput } from '../session-time';
import { SessionSettingsForm } from './SessionSettingsForm';

const group = (legend: string) => screen.getByRole('group', { name: legend });
const hours = (legend: string) => within(group(legend)).getByRole('textbox', { name: 'Hours' });
const minutes = (legend: string) => within(group(legend)).getByRole('textbox', { name: 'Minutes' });

async function setTime(legend: string, h: string, m: string) {
  await userEvent.clear(hours(legend));
  if (h) await userEvent.type(hours(legend), h);
  await userEvent.clear(minutes(legend));
  if (m) await userEvent.type(minutes(legend), m);
}

function renderForm() {
  const onSave = vi.fn(async () => undefined);
  renderAt(<SessionSettingsForm settings={{ max_lifetime_minutes: 720, idle_timeout_minutes: 90 }} onSave={onSave} />);
  return { onSave };
}

describe('session settings in hours and minutes', () => {
  it('shows the saved minutes as hours and minutes', () => {
    renderForm();
    expect(hours('Maximum session lifetime')).toHaveValue('12');
    expect(minutes('Maximum session lifetime')).toHaveValue('0');
    expect(hours('Idle timeout')).toHaveValue('1');
    expect(minutes('Idle timeout')).toHaveValue('30');
  });

  it('refuses less than 30 minutes with the spec messages', async () => {
    const { onSave } = renderForm();
    await setTime('Maximum session lifetime', '0', '29');
    await setTime('Idle timeout', '', '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Maximum session lifetime must be at least 30 minutes.')).toBeInTheDocument();
    expect(screen.getByText('Idle timeout must be at least 30 minutes.')).toBeInTheDocument();
    expect(hours('Maximum session lifetime')).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('refuses more than 2160 hours of lifetime and 720 hours of idle time', async () => {
    const { onSave } = renderForm();
    await setTime('Maximum session lifetime', '2160', '1');
    await setTime('Idle timeout', '720', '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Maximum session lifetime must be at most 2160 hours.')).toBeInTheDocument();
    expect(screen.getByText('Idle timeout must be at most 720 hours.')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('refuses minutes beyond 59 and text that is not a number', async () => {
    renderForm();
    await setTime('Maximum session lifetime', '1', '60');
    await setTime('Idle timeout', 'two', '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Value must be a number between 0 and 59.')).toBeInTheDocument();
    expect(screen.getByText('Value must be a number between 0 and 720.')).toBeInTheDocument();
  });

  it('saves the bounds themselves as minutes', async () => {
    const { onSave } = renderForm();
    await setTime('Maximum session lifetime', '2160', '0');
    await setTime('Idle timeout', '0', '30');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({ max_lifetime_minutes: 2160 * 60, idle_timeout_minutes: 30 }),
    );
  });

  it('round-trips minutes through the form values', () => {
    const input = toSessionTimeInput({ max_lifetime_minutes: 125, idle_timeout_minutes: 43_200 });
    expect(input).toEqual({ lifetime_hours: '2', lifetime_minutes: '5', idle_hours: '720', idle_minutes: '0' });
    expect(ZSessionTimeForm.parse(input)).toEqual({ max_lifetime_minutes: 125, idle_timeout_minutes: 43_200 });
  });
});
