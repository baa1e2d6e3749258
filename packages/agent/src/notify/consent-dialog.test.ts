import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_ALLOW_LABEL, CONSENT_DENY_LABEL } from '../jobs/remote.js';
import { createLinuxNotifier } from './linux.js';
import type { NoticeRequest } from './notifier.js';

/**
 * A consent through the real dialog: zenity on an Xvfb screen, answered by pressing keys with
 * xdotool as the device's user would. Closing the dialog (Escape) must deny, never allow.
 */

const TITLE = 'Patchwell consent test';
let xvfb: ChildProcess;
let display: string;

const consent: NoticeRequest = {
  title: TITLE,
  message: 'An administrator asks to see and control your screen. Allow?',
  timeoutS: 60,
  periodsH: [],
  proceedLabel: CONSENT_ALLOW_LABEL,
  declineLabel: CONSENT_DENY_LABEL,
  requireChoice: true,
};

async function until<T>(read: () => T | null, what: string, tries = 1000): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function dialogWindow(): string | null {
  try {
    const ids = execFileSync('xdotool', ['search', '--onlyvisible', '--name', `^${TITLE}$`], {
      env: { ...process.env, DISPLAY: display },
      stdio: 'pipe',
    })
      .toString()
      .split('\n')
      .filter(Boolean);
    return ids.at(-1) ?? null;
  } catch {
    return null; // xdotool exits 1 while no window matches
  }
}

/**
 * Shows the consent and answers it with `key` once its window is up. A window can be mapped
 * before GTK reads keys (seconds apart on a busy machine), so the key is pressed again while
 * the dialog is still there and unanswered.
 */
async function answerWith(key: string) {
  const notifier = createLinuxNotifier({ uid: 1000, env: { DISPLAY: display } });
  let answered = false;
  const shown = notifier.show(consent).finally(() => {
    answered = true;
  });
  while (!answered) {
    const id = await until(() => (answered ? 'answered' : dialogWindow()), 'the consent dialog');
    if (answered) break;
    try {
      execFileSync('xdotool', ['windowfocus', id, 'key', '--clearmodifiers', key], {
        env: { ...process.env, DISPLAY: display },
        stdio: 'pipe',
      });
    } catch {
      // The window went between the search and the key: the dialog is answering.
    }
    // Up to two seconds for the dialog to act on the key before pressing it again.
    await until(() => (answered ? true : null), 'the answer', 40).catch(() => undefined);
  }
  return shown;
}

beforeAll(async () => {
  const n = 500 + Math.floor(Math.random() * 400);
  display = `:${n}`;
  // -noreset: by default Xvfb resets when its last client leaves, and a dialog that connects
  // during the reset is refused ("cannot open display"): the second test's zenity, once, in CI.
  xvfb = spawn('Xvfb', [display, '-screen', '0', '800x600x24', '-nolisten', 'tcp', '-noreset'], { stdio: 'ignore' });
  await until(() => (existsSync(`/tmp/.X11-unix/X${n}`) ? true : null), 'Xvfb');
});
afterAll(() => {
  xvfb?.kill('SIGTERM');
});

describe('the consent dialog on a Linux desktop', () => {
  // zenity starts GTK on a busy machine in seconds: the limit is generous, the wait ends with the window.
  it('allows with its default button', { timeout: 60_000 }, async () => {
    expect(await answerWith('Return')).toEqual({ shown: true, answer: 'proceed' });
  });

  it('denies when the user closes it', { timeout: 60_000 }, async () => {
    expect(await answerWith('Escape')).toEqual({ shown: true, answer: 'decline' });
  });
});
