import {
  REMOTE_CLOSE_ENDED_BY_USER,
  REMOTE_ENDED_BY_USER_TEXT,
  REMOTE_IDLE_MINUTES_MAX,
} from '@patchwell/core/remote/remote-constants';
import type { RemoteSessionCommand } from '@patchwell/core/remote/remote-sessions.schema';
import type WebSocket from 'ws';
import type { AgentApi } from '../api/client.js';
import type { Platform } from '../platform/platform.js';
import { bridgeToPty, bridgeToTcp } from '../remote/tunnel.js';
import { runProcess, type ProcessRunner } from './process.js';

/**
 * A `remote_session` command (decision 0016): ask the signed-in user unless the zone allows
 * unattended access, report the answer, then open the outbound tunnel and join it to the
 * screen (a loopback VNC server) or a shell under a pseudo-terminal. The command's result is
 * posted once the tunnel is open; the session itself runs on in the background until either
 * end closes it.
 */

export type RemoteOutcome = { status: 'success' | 'error'; message: string; data: Record<string, unknown> };

export type RemoteJobContext = {
  platform: Platform;
  api: AgentApi;
  /** A shell, or installing what remote control needs, changes the machine: the agent's --allow-changes. */
  allowChanges: boolean;
  /** Runs the install of what remote control needs (default: the real process runner). */
  run?: ProcessRunner;
  /** Where a background session's failure is told (the run loop's log). */
  log?: (line: string) => void;
  /** The shell's program (default `$SHELL`, else /bin/bash). */
  shell?: string;
  /** The agent is stopping: an open session is closed (its x11vnc or shell ends with it). */
  signal?: AbortSignal;
};

const consentText = (kind: RemoteSessionCommand['kind']) =>
  kind === 'shell'
    ? 'An administrator asks to open a remote shell on this computer. Allow?'
    : 'An administrator asks to see and control your screen. Allow?';

/** How long installing what remote control needs may take (a package manager's download and install). */
const SETUP_TIMEOUT_MS = 15 * 60_000;

/**
 * Installs what remote control still needs (x11vnc), telling the server first so the console
 * shows `installing` at once; the next session finds it installed. Null when nothing is missing.
 */
async function installRemoteDesktop(id: number, ctx: RemoteJobContext): Promise<RemoteOutcome | null> {
  const setup = await ctx.platform.remoteDesktopSetup?.();
  if (!setup) return null;
  if (!ctx.allowChanges) {
    await ctx.api.postRemoteConsent(id, false);
    return {
      status: 'error',
      message: `Remote control needs ${setup.what}, which the agent installs only with --allow-changes.`,
      data: { consent: 'refused', missing: setup.what },
    };
  }
  await ctx.api.postRemoteConsent(id, false, { installing: true });
  const out = await (ctx.run ?? runProcess)(setup.install, { timeoutMs: SETUP_TIMEOUT_MS, signal: ctx.signal });
  const done = out.exitCode === 0 && !out.spawnError && !out.timedOut;
  const why = out.spawnError ?? (out.timedOut ? 'timed out' : `exit ${out.exitCode}`);
  return {
    status: done ? 'success' : 'error',
    message: done
      ? `Installed ${setup.what}: remote control is ready for the next session.`
      : `Installing ${setup.what} failed (${why}): ${out.stderr.trim().split('\n').slice(-3).join(' ')}`.trim(),
    data: { consent: 'refused', installing: setup.what, installed: done },
  };
}

/** Seconds the user has to answer (the server waits two minutes for the answer). */
const CONSENT_TIMEOUT_S = 90;
export const CONSENT_ALLOW_LABEL = 'Allow';
export const CONSENT_DENY_LABEL = 'Deny';

/** Why the session was refused, as the session's result says it. */
function refusalText(answer: 'proceed' | 'defer' | 'timeout' | 'decline'): string {
  if (answer === 'timeout') return 'The user did not answer in time.';
  if (answer === 'decline') return 'The user denied the request.';
  return `The user answered ${answer}.`;
}

/** What the user sees while a session lasts; its button ends the session. */
export const activeText = (kind: RemoteSessionCommand['kind']) =>
  kind === 'shell'
    ? 'An administrator has a remote shell open on this computer. Select End session to close it.'
    : 'An administrator is viewing and controlling your screen. Select End session to disconnect.';
export const END_SESSION_LABEL = 'End session';
/** The notice's title: apart from the consent's, so the user (and a test) can tell them apart. */
export const SESSION_NOTICE_TITLE = 'Patchwell remote session';

/**
 * While the session lasts the signed-in user sees that it is open and can end it: a dialog
 * whose button closes the tunnel with the "ended by the user" code. The dialog goes away when
 * the session ends otherwise. Without a dialog (nobody signed in, no zenity) nothing is shown.
 */
function showWhileOpen(socket: WebSocket, kind: RemoteSessionCommand['kind'], ctx: RemoteJobContext): void {
  const notifier = ctx.platform.notifier;
  if (!notifier) return;
  const gone = new AbortController();
  socket.once('close', () => gone.abort());
  void notifier
    .show({
      title: SESSION_NOTICE_TITLE,
      message: activeText(kind),
      // Longer than any session lasts idle; an active one is re-shown when this one times out.
      timeoutS: REMOTE_IDLE_MINUTES_MAX * 60,
      periodsH: [],
      proceedLabel: END_SESSION_LABEL,
      requireChoice: true,
      signal: gone.signal,
    })
    .then((answer) => {
      if (gone.signal.aborted) return;
      if (answer.shown && answer.answer === 'proceed' && !answer.note) {
        socket.close(REMOTE_CLOSE_ENDED_BY_USER, REMOTE_ENDED_BY_USER_TEXT);
      } else if (answer.shown && answer.answer === 'timeout') {
        const stopping = () => socket.close(1001, 'the agent is stopping');
        ctx.signal?.addEventListener('abort', stopping, { once: true });
        socket.once('close', () => ctx.signal?.removeEventListener('abort', stopping));
        showWhileOpen(socket, kind, ctx);
      } else if (!answer.shown) {
        ctx.log?.(`remote session: the user cannot be shown that it is open (${answer.reason})`);
      }
    });
}

export async function runRemoteSession(remote: RemoteSessionCommand, ctx: RemoteJobContext): Promise<RemoteOutcome> {
  const { session_id: id, kind } = remote;
  const refuse = async (message: string) => {
    await ctx.api.postRemoteConsent(id, false);
    return { status: 'success' as const, message, data: { consent: 'refused' } };
  };
  if (kind === 'shell' && !ctx.allowChanges) return refuse('The remote shell needs the agent’s --allow-changes.');
  if (kind === 'control' && !ctx.platform.remoteDesktop)
    return refuse('Remote control is not available on this device.');
  // Nobody is asked to allow a session that cannot start yet.
  const installed = kind === 'control' ? await installRemoteDesktop(id, ctx) : null;
  if (installed) return installed;
  if (remote.ask_consent) {
    const answer = await (ctx.platform.notifier?.show({
      message: consentText(kind),
      timeoutS: CONSENT_TIMEOUT_S,
      periodsH: [],
      proceedLabel: CONSENT_ALLOW_LABEL,
      declineLabel: CONSENT_DENY_LABEL,
      requireChoice: true,
    }) ?? Promise.resolve({ shown: false as const, reason: 'this platform cannot ask the user' }));
    const granted = answer.shown && answer.answer === 'proceed' && !answer.note;
    if (!granted) return refuse(answer.shown ? refusalText(answer.answer) : answer.reason);
    await ctx.api.postRemoteConsent(id, true);
  }
  const desktop = kind === 'control' ? await ctx.platform.remoteDesktop!() : null;
  let socket;
  try {
    socket = await ctx.api.openRemoteTunnel(id);
  } catch (err) {
    await desktop?.stop();
    return { status: 'error', message: `The tunnel did not open: ${(err as Error).message}`, data: { kind } };
  }
  const stopping = () => socket.close(1001, 'the agent is stopping');
  ctx.signal?.addEventListener('abort', stopping, { once: true });
  socket.once('close', () => ctx.signal?.removeEventListener('abort', stopping));
  showWhileOpen(socket, kind, ctx);
  const bridged = desktop
    ? bridgeToTcp(socket, desktop.port).finally(() => desktop.stop())
    : bridgeToPty(socket, { shell: ctx.shell ?? process.env.SHELL ?? '/bin/bash' });
  bridged.then(
    () => ctx.log?.(`remote session ${id}: ended`),
    (err: unknown) => ctx.log?.(`remote session ${id}: ${(err as Error).message}`),
  );
  return {
    status: 'success',
    message: `Remote ${kind} session ${id} open.`,
    data: { kind, consent: remote.ask_consent ? 'granted' : 'unattended' },
  };
}
