/** Pure readers of what the session tools print (loginctl, zenity, osascript, msg.exe). */
import { hoursOfLabel } from './notifier.js';

/** A login session as `loginctl show-session -p …` describes it. */
export type LoginSession = {
  id: string;
  name: string;
  uid: number;
  type: string;
  display: string;
  remote: boolean;
  active: boolean;
  state: string;
  class: string;
};

/** Session ids from `loginctl list-sessions --no-legend` (first column, whatever columns follow). */
export function parseSessionIds(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter((id) => /^[A-Za-z0-9_-]+$/.test(id));
}

/** Blocks of `Key=Value` lines from `loginctl show-session ID… -p …`, separated by blank lines. */
export function parseShowSessions(text: string): LoginSession[] {
  const out: LoginSession[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const props = new Map<string, string>();
    for (const line of block.split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) props.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
    }
    const id = props.get('Id');
    const uid = Number(props.get('User'));
    if (!id || !Number.isInteger(uid)) continue;
    out.push({
      id,
      name: props.get('Name') ?? '',
      uid,
      type: props.get('Type') ?? '',
      display: props.get('Display') ?? '',
      remote: props.get('Remote') === 'yes',
      active: props.get('Active') === 'yes',
      state: props.get('State') ?? '',
      class: props.get('Class') ?? 'user',
    });
  }
  return out;
}

/**
 * Where a notice can go: the user's graphical session (the active one first), else the
 * terminal sessions (local or SSH). Login screens (greeter class) and closing sessions are no one.
 */
export function pickSessions(sessions: LoginSession[]): { graphical: LoginSession | null; terminals: LoginSession[] } {
  const people = sessions.filter((s) => s.class === 'user' && s.state !== 'closing' && s.name);
  const graphical = people
    .filter((s) => ['x11', 'wayland', 'mir'].includes(s.type) && !s.remote)
    .sort((a, b) => Number(b.active) - Number(a.active))[0];
  return { graphical: graphical ?? null, terminals: people.filter((s) => s.type === 'tty') };
}

/** Users with a terminal from `who` (where systemd's loginctl is missing, e.g. in containers). */
export function parseWho(text: string): string[] {
  const names = text
    .split('\n')
    .map((l) => l.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean);
  return [...new Set(names)];
}

/**
 * zenity's answer: exit 0 is the OK button ("Install now"), 5 the timeout, 1 a deferral
 * button (an extra button prints its label; the cancel button, labelled with the shortest
 * deferral, prints nothing, as does closing the window). Anything else: it failed.
 */
export function parseZenityAnswer(
  exitCode: number | null,
  stdout: string,
  periodsH: number[],
  declinable = false,
): { answer: 'proceed' | 'defer' | 'timeout' | 'decline'; deferH?: number } | null {
  if (exitCode === 0) return { answer: 'proceed' };
  if (exitCode === 5) return { answer: 'timeout' };
  if (exitCode === 1) {
    // Cancel, Escape or the window's close button: a refusal where one was offered.
    if (declinable) return { answer: 'decline' };
    if (!periodsH.length) return { answer: 'proceed' };
    const hours = hoursOfLabel(stdout) ?? Math.min(...periodsH);
    return { answer: 'defer', deferH: hours };
  }
  return null;
}

/** The AppleScript's answer (notify/mac.ts): `proceed`, `timeout`, `decline` or `defer N h`. */
export function parseOsascriptAnswer(
  stdout: string,
): { answer: 'proceed' | 'defer' | 'timeout' | 'decline'; deferH?: number } | null {
  const text = stdout.trim();
  if (text === 'proceed' || text === 'timeout' || text === 'decline') return { answer: text };
  const hours = hoursOfLabel(text);
  return hours === null ? null : { answer: 'defer', deferH: hours };
}

/** `stat -f %Su /dev/console`: who owns the console; root or the login window means nobody is signed in. */
export function consoleUserOf(stdout: string): string | null {
  const user = stdout.trim();
  return !user || ['root', 'loginwindow', '_mbsetupuser'].includes(user) ? null : user;
}

/** Why msg.exe failed, in words. */
export function msgFailureOf(stderr: string, exitCode: number | null): string {
  if (/no session exists|no user sessions|error 1722/i.test(stderr)) return 'no signed-in user';
  const line = stderr.trim().split('\n')[0]?.trim();
  return `msg.exe failed${exitCode === null ? '' : ` (exit ${exitCode})`}${line ? `: ${line}` : ''}`;
}
