/**
 * Notices on Windows: `msg.exe *` writes the message to every signed-in session and returns
 * at once. The agent runs as SYSTEM in session 0, which cannot put a dialog with buttons on
 * the user's desktop, so no deferral can be offered: the notice informs and the run goes ahead.
 */
import { runProcess, type ProcessRunner } from '../jobs/process.js';
import type { Notifier } from './notifier.js';
import { msgFailureOf } from './notify.parsers.js';

/** Why a Windows notice offers no deferral (also what the fleet simulator reports). */
export const MSG_NO_DEFERRAL_NOTE = 'msg.exe from the SYSTEM account offers no buttons: no deferral could be offered';

/** msg.exe refuses longer messages. */
const MSG_MAX = 255;

export function createWindowsNotifier(options: { run?: ProcessRunner } = {}): Notifier {
  const run = options.run ?? runProcess;
  return {
    async show(request) {
      // msg.exe shows text but returns no answer, so it cannot carry a consent.
      if (request.requireChoice) return { shown: false, reason: 'msg.exe cannot ask for an answer' };
      const text = `Patchwell: ${request.message}`.slice(0, MSG_MAX);
      const out = await run(
        { command: 'msg.exe', args: ['*', `/TIME:${request.timeoutS}`, text] },
        { timeoutMs: 30_000 },
      );
      if (out.spawnError) return { shown: false, reason: `msg.exe is not available: ${out.spawnError}` };
      if (out.exitCode !== 0)
        return { shown: false, reason: msgFailureOf(`${out.stderr}\n${out.stdout}`, out.exitCode) };
      return {
        shown: true,
        answer: 'proceed',
        ...(request.periodsH.length ? { note: MSG_NO_DEFERRAL_NOTE } : {}),
      };
    },
  };
}
