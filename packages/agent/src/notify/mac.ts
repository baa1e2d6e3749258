/**
 * Notices on macOS: an AppleScript dialog in the console user's session (`launchctl asuser`
 * puts it in their GUI; a dialog has at most three buttons, so "Defer" opens a list of the
 * periods). `giving up after` is the timeout. Nobody at the console: not shown.
 */
import { runProcess, type ProcessRunner, type ProcessSpec } from '../jobs/process.js';
import { deferLabel, type Notifier, type NoticeRequest } from './notifier.js';
import { consoleUserOf, parseOsascriptAnswer } from './notify.parsers.js';

/**
 * Prints `proceed`, `timeout`, `decline` or the chosen `Defer N h`; the texts come in as
 * arguments, never as code: message, seconds, proceed label, title, decline label (empty for
 * none), then the deferral labels.
 */
export const NOTICE_APPLESCRIPT = [
  'on run argv',
  'set msg to item 1 of argv',
  'set secs to (item 2 of argv) as integer',
  'set goLabel to item 3 of argv',
  'set ttl to item 4 of argv',
  'set noLabel to item 5 of argv',
  'set opts to {}',
  'repeat with i from 6 to count of argv',
  'set end of opts to item i of argv',
  'end repeat',
  'if (count of opts) is 0 and noLabel is not "" then',
  'set r to display dialog msg with title ttl buttons {noLabel, goLabel} default button goLabel cancel button noLabel giving up after secs',
  'if gave up of r then return "timeout"',
  'return "proceed"',
  'end if',
  'if (count of opts) is 0 then',
  'set r to display dialog msg with title ttl buttons {goLabel} default button goLabel giving up after secs',
  'if gave up of r then return "timeout"',
  'return "proceed"',
  'end if',
  'set r to display dialog msg with title ttl buttons {"Defer", goLabel} default button goLabel giving up after secs',
  'if gave up of r then return "timeout"',
  'if button returned of r is goLabel then return "proceed"',
  'set c to choose from list opts with title ttl with prompt "Defer for how long?" default items {item 1 of opts}',
  'if c is false then return "proceed"',
  'return item 1 of c',
  'end run',
];

/** A dialog's cancel button (and Escape) ends osascript with error -128, "User canceled". */
const USER_CANCELED = /\(-128\)|user cancel/i;

export type MacNotifierOptions = { run?: ProcessRunner; uid?: number };

/** osascript with the script and the notice's texts, in the console user's session when the agent is root. */
export function osascriptSpec(request: NoticeRequest, user: { name: string; uid: number } | null): ProcessSpec {
  const program = [
    '/usr/bin/osascript',
    ...NOTICE_APPLESCRIPT.flatMap((line) => ['-e', line]),
    request.message,
    String(request.timeoutS),
    request.proceedLabel,
    request.title ?? 'Patchwell',
    request.declineLabel ?? '',
    ...request.periodsH.map(deferLabel),
  ];
  if (!user) return { command: program[0]!, args: program.slice(1) };
  return {
    command: '/bin/launchctl',
    args: ['asuser', String(user.uid), '/usr/bin/sudo', '-u', user.name, ...program],
  };
}

export function createMacNotifier(options: MacNotifierOptions = {}): Notifier {
  const run = options.run ?? runProcess;
  const agentUid = options.uid ?? process.getuid?.() ?? 0;
  return {
    async show(request) {
      const owner = await run({ command: '/usr/bin/stat', args: ['-f', '%Su', '/dev/console'] }, { timeoutMs: 5_000 });
      const name = owner.exitCode === 0 ? consoleUserOf(owner.stdout) : null;
      if (!name) return { shown: false, reason: 'no signed-in user' };
      let user: { name: string; uid: number } | null = null;
      if (agentUid === 0) {
        const id = await run({ command: '/usr/bin/id', args: ['-u', name] }, { timeoutMs: 5_000 });
        const uid = Number(id.stdout.trim());
        if (id.exitCode !== 0 || !Number.isInteger(uid)) return { shown: false, reason: `no uid for ${name}` };
        user = { name, uid };
      }
      const out = await run(osascriptSpec(request, user), {
        timeoutMs: (request.timeoutS + 30) * 1000,
        signal: request.signal,
      });
      if (out.timedOut) return { shown: true, answer: 'timeout' };
      const answer = out.exitCode === 0 ? parseOsascriptAnswer(out.stdout) : null;
      if (answer) return { shown: true, ...answer };
      if (request.declineLabel && USER_CANCELED.test(out.stderr)) return { shown: true, answer: 'decline' };
      const why = (out.spawnError ?? out.stderr.trim().split('\n')[0]) || `exit ${out.exitCode}`;
      return { shown: false, reason: `the dialog could not be shown: ${why}` };
    },
  };
}
