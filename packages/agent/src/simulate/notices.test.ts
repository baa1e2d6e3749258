import { describe, expect, it } from 'vitest';
import type { AgentCommand } from '../protocol.js';
import { generateMachine } from './inventory.js';
import { answerNotice, rebootAfter } from './notices.js';
import { createRng } from './rng.js';

const notice = {
  message: 'Updates now.',
  timeout_min: 15,
  deferral: { periods_h: [1, 4, 8], remaining: 6, max: 6, auto_defer: false },
};
const fleet = Array.from({ length: 400 }, (_, i) => generateMachine(7, i));

describe('simulated users and notices', () => {
  it('shows nothing on servers, defers on Windows by the longest period only, and mostly goes ahead', () => {
    const rng = createRng(3);
    const reports = fleet.map((m) => ({ m, r: answerNotice(rng, m, notice) }));
    for (const { m, r } of reports) {
      if (!m.system.logged_in_user) expect(r).toEqual({ shown: false, reason: 'no signed-in user' });
      // Windows' question box has Yes and No: No defers by the longest period.
      else if (m.system.os_family === 'windows' && r.choice === 'defer') expect(r.defer_h).toBe(8);
    }
    const people = reports.filter(({ m }) => m.system.logged_in_user);
    const deferred = people.filter(({ r }) => r.choice === 'defer');
    expect(people.length).toBeGreaterThan(20);
    expect(deferred.length).toBeGreaterThan(0);
    expect(deferred.length).toBeLessThan(people.length / 3);
    expect(deferred.every(({ r }) => [1, 4, 8].includes(r.defer_h!))).toBe(true);
    // Without a deferral on offer nobody defers.
    expect(people.every(({ m }) => answerNotice(rng, m, { ...notice, deferral: null }).choice === 'proceed')).toBe(
      true,
    );
  });

  it('reboots when needed, and not otherwise', () => {
    const rng = createRng(5);
    const machine = { ...generateMachine(7, 1), needsReboot: false };
    const cmd = (mode: 'auto' | 'when_needed' | 'notify'): AgentCommand => ({
      id: 1,
      type: 'install_updates',
      args: { names: ['x'], reboot: { mode, notice: null } },
      timeout_s: 7200,
      created_at: new Date().toISOString(),
    });
    expect(rebootAfter(rng, machine, cmd('when_needed'))).toMatchObject({ outcome: 'none' });
    expect(rebootAfter(rng, machine, cmd('auto'))).toMatchObject({ outcome: 'rebooting', delay_s: 60 });
    expect(rebootAfter(rng, { ...machine, needsReboot: true }, cmd('when_needed'))).toMatchObject({
      outcome: 'rebooting',
    });
    expect(rebootAfter(rng, { ...machine, needsReboot: true }, cmd('notify'))).toMatchObject({ outcome: 'none' });
  });
});
