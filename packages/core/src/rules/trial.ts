import { ONE_DAY_MS } from '../constants';

export type TrialState = { kind: 'none' } | { kind: 'active'; daysLeft: number } | { kind: 'expired' };

/**
 * Days left of a trial (spec A section 4): ceil((end - now) / one day) + 1, at least 1.
 * The "+ 1" counts today, so a trial ending later today still shows one day.
 */
export function trialDaysLeft(endTime: Date | string | number, now: Date | number = Date.now()): number {
  const end = new Date(endTime).getTime();
  const current = typeof now === 'number' ? now : now.getTime();
  return Math.max(1, Math.ceil((end - current) / ONE_DAY_MS) + 1);
}

/** What the trial countdown shows for a zone. */
export function trialState(
  zone: { trial_end_time: string | null; trial_expired: boolean },
  now: Date | number = Date.now(),
): TrialState {
  if (!zone.trial_end_time) return { kind: 'none' };
  const current = typeof now === 'number' ? now : now.getTime();
  if (zone.trial_expired || new Date(zone.trial_end_time).getTime() <= current) return { kind: 'expired' };
  return { kind: 'active', daysLeft: trialDaysLeft(zone.trial_end_time, current) };
}
