import {
  REMOTE_CLOSE_ENDED_BY_USER,
  REMOTE_CLOSE_INSTALLING,
  REMOTE_END_INSTALLING,
  REMOTE_ENDED_BY_USER_TEXT,
  type RemoteControlStatus,
  type RemoteSession,
} from '@patchwell/core/remote/remote-sessions.schema';
import { TEXTS } from '@patchwell/core/texts';
import { isApiError } from '../../api/errors';

/**
 * The remote-control page's progress as the spec's statuses (spec B section 4): a reducer of
 * what really happens (the create call, the session's polled state, the tunnel's socket, the
 * RFB handshake or the shell's first bytes, the socket's close code) into one status and,
 * when something went wrong, the spec's error text.
 */

const R = TEXTS.remote;

/** Close codes of the tunnel (the server's `TUNNEL_CLOSE`). */
export const TUNNEL_CLOSE_CODES = {
  normal: 1000,
  unauthorized: 4401,
  refused: 4403,
  idle: 4408,
  unavailable: 4503,
  endedByUser: REMOTE_CLOSE_ENDED_BY_USER,
  installing: REMOTE_CLOSE_INSTALLING,
} as const;

export type RemoteState = {
  /** null before the first Connect. */
  status: RemoteControlStatus | null;
  /** The spec's error text when the session failed. */
  message: string | null;
  /** The session's id once created. */
  sessionId: number | null;
};

export type RemoteEvent =
  /** Connect was pressed: the session is being created. */
  | { type: 'start' }
  /** The session exists; its tunnel's socket is opening. */
  | { type: 'created'; session: RemoteSession }
  /** The create call failed. */
  | { type: 'createFailed'; error: unknown }
  /** The server accepted the browser's end of the tunnel. */
  | { type: 'socketOpen' }
  /** The session's state as GET session answers it (polled while waiting). */
  | { type: 'polled'; session: RemoteSession }
  /** The device's first bytes arrived (the VNC greeting, the shell's prompt). */
  | { type: 'deviceBytes'; kind: RemoteSession['kind'] }
  /** noVNC finished the RFB handshake. */
  | { type: 'handshakeDone' }
  /** noVNC gave up (security or protocol failure). */
  | { type: 'viewerFailed' }
  /** Disconnect was pressed. */
  | { type: 'disconnect' }
  /** The tunnel's socket closed with `code`. */
  | { type: 'closed'; code: number };

export const INITIAL_REMOTE_STATE: RemoteState = { status: null, message: null, sessionId: null };

/** Statuses after which nothing but a new Connect changes the page. */
const FINAL: ReadonlySet<RemoteControlStatus> = new Set([
  'disconnected',
  'connectionFailed',
  'unauthorized',
  'unavailable',
  'initializing',
  'installing',
  'error',
]);

/** Statuses before the device's end is known to be there, in order. */
const WAITING: readonly RemoteControlStatus[] = [
  'authenticating',
  'tunnelOpening',
  'awaitingConsent',
  'consentGranted',
];

export const isFinalStatus = (status: RemoteControlStatus | null) => status === null || FINAL.has(status);
/** While a session is starting or open, Connect is replaced by Disconnect. */
export const isLiveStatus = (status: RemoteControlStatus | null) => !isFinalStatus(status);

const fail = (state: RemoteState, status: RemoteControlStatus, message: string | null): RemoteState => ({
  ...state,
  status,
  message,
});

/** What a refused create means: the server answers the spec's texts with these codes. */
export function createFailure(error: unknown): { status: RemoteControlStatus; message: string } {
  if (!isApiError(error)) return { status: 'error', message: R.setupFailed };
  const code = error.code;
  const message = error.body?.message;
  if (code === 'remote.offline' || message === R.offline) return { status: 'unavailable', message: R.offline };
  if (code === 'remote.initializing' || message === R.initializing)
    return { status: 'initializing', message: R.initializing };
  if (code === 'remote.upgrade' || message === R.upgrade) return { status: 'unauthorized', message: R.upgrade };
  if (error.status === 401 || error.status === 403)
    return { status: 'unauthorized', message: message && message !== R.unauthorized ? message : R.unauthorized };
  if (error.status === 409 && message) return { status: 'unavailable', message };
  if (error.status === 404) return { status: 'unavailable', message: R.unableToConnect };
  return { status: 'error', message: R.setupFailed };
}

/** What the tunnel's close code means, given how far the session got. */
function closeOutcome(state: RemoteState, code: number): RemoteState {
  if (state.status === 'disconnecting') return fail(state, 'disconnected', null);
  switch (code) {
    case TUNNEL_CLOSE_CODES.unauthorized:
      return fail(state, 'unauthorized', R.unauthorized);
    case TUNNEL_CLOSE_CODES.refused:
      return fail(state, 'connectionFailed', R.noConsent);
    case TUNNEL_CLOSE_CODES.unavailable:
      return fail(state, 'unavailable', R.unableToConnect);
    case TUNNEL_CLOSE_CODES.idle:
      return fail(state, 'disconnected', null);
    case TUNNEL_CLOSE_CODES.endedByUser:
      return fail(state, 'disconnected', REMOTE_ENDED_BY_USER_TEXT);
    case TUNNEL_CLOSE_CODES.installing:
      return fail(state, 'installing', R.installing);
  }
  if (state.status === 'connected') return fail(state, 'disconnected', code === 1000 ? null : R.unableToConnect);
  return fail(state, 'connectionFailed', R.unableToConnect);
}

export function remoteReducer(state: RemoteState, event: RemoteEvent): RemoteState {
  if (event.type === 'start') return { status: 'authenticating', message: null, sessionId: null };
  if (isFinalStatus(state.status)) return state;
  switch (event.type) {
    case 'created':
      return { ...state, status: 'tunnelOpening', sessionId: event.session.id };
    case 'createFailed': {
      const { status, message } = createFailure(event.error);
      return fail(state, status, message);
    }
    case 'socketOpen':
      return state.status === 'tunnelOpening' ? { ...state, status: 'awaitingConsent' } : state;
    case 'polled': {
      const { session } = event;
      if (session.state === 'refused' && session.end_reason === REMOTE_END_INSTALLING)
        return fail(state, 'installing', R.installing);
      if (session.state === 'refused') return fail(state, 'connectionFailed', R.noConsent);
      if (session.state === 'expired') return fail(state, 'connectionFailed', R.unableToConnect);
      if (session.state === 'ended') return closeOutcome(state, 1000);
      // Only forwards: a late poll never takes a connecting session back.
      if (session.state === 'open' && WAITING.includes(state.status!) && state.status !== 'tunnelOpening')
        return { ...state, status: 'consentGranted' };
      return state;
    }
    case 'deviceBytes':
      if (!WAITING.includes(state.status!)) return state;
      return { ...state, status: event.kind === 'shell' ? 'connected' : 'connecting' };
    case 'handshakeDone':
      return state.status === 'disconnecting' ? state : { ...state, status: 'connected' };
    case 'viewerFailed':
      return fail(state, 'error', R.setupFailed);
    case 'disconnect':
      return { ...state, status: 'disconnecting' };
    case 'closed':
      return closeOutcome(state, event.code);
  }
}
