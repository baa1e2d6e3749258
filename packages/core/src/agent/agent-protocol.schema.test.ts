import { describe, expect, it } from 'vitest';
import { ZAgentCommandArgs, ZCommandResultBody } from './agent-protocol.schema';

describe('command notices and reboots', () => {
  it('accepts an install with a notice, a deferral and a reboot, filling defaults', () => {
    const args = ZAgentCommandArgs.parse({
      names: ['openssl'],
      notice: {
        message: 'Updates will be installed.',
        deferral: { periods_h: [1, 4, 8], remaining: 6, max: 6 },
      },
      reboot: { mode: 'when_needed', notice: null },
    });
    expect(args.notice).toMatchObject({ timeout_min: 15, deferral: { auto_defer: false, remaining: 6 } });
    expect(args.reboot?.mode).toBe('when_needed');
  });

  it('keeps commands without notices valid (older servers and agents)', () => {
    expect(ZAgentCommandArgs.parse({ names: ['curl'] })).toEqual({ names: ['curl'] });
    expect(ZCommandResultBody.parse({ status: 'success', exit_code: 0 })).toEqual({ status: 'success', exit_code: 0 });
  });

  it('refuses a deferral with none left, more than three options or hours outside 1–24', () => {
    const notice = (deferral: unknown) => ZAgentCommandArgs.safeParse({ notice: { message: 'm', deferral } }).success;
    expect(notice({ periods_h: [1], remaining: 0 })).toBe(false);
    expect(notice({ periods_h: [1, 2, 3, 4], remaining: 1 })).toBe(false);
    expect(notice({ periods_h: [25], remaining: 1 })).toBe(false);
    expect(notice({ periods_h: [24], remaining: 10 })).toBe(true);
    expect(ZAgentCommandArgs.safeParse({ reboot: { mode: 'sometimes' } }).success).toBe(false);
  });

  it('reads the notice and reboot reports of a result', () => {
    const body = ZCommandResultBody.parse({
      status: 'canceled',
      notice: { shown: true, choice: 'defer', defer_h: 4 },
    });
    expect(body.notice).toEqual({ shown: true, choice: 'defer', defer_h: 4 });
    const done = ZCommandResultBody.parse({
      status: 'success',
      notice: { shown: false, reason: 'no signed-in user' },
      reboot: { outcome: 'scheduled', delay_s: 14_400, notice: { shown: true, choice: 'defer', defer_h: 4 } },
    });
    expect(done.reboot?.outcome).toBe('scheduled');
    expect(ZCommandResultBody.safeParse({ status: 'success', notice: { shown: true, defer_h: 0 } }).success).toBe(
      false,
    );
  });
});
