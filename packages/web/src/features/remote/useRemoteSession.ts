import type { RemoteSessionKind } from '@patchwell/core/remote/remote-sessions.schema';
import { useCallback, useEffect, useReducer, useRef, useState, type RefObject } from 'react';
import { createRemoteSession, endRemoteSession, fetchRemoteSession, tunnelUrl } from './remote.api';
// Types only: noVNC itself loads on Connect.
import type { ScreenHandlers as ViewerHandlers, VncCredentials } from './remote-screen';
import { INITIAL_REMOTE_STATE, isLiveStatus, remoteReducer, type RemoteState } from './remote-status';

/** How often the session's state is read while the device's answer is awaited. */
export const REMOTE_POLL_MS = 1_000;

type Viewer = { detach(): void };

/** The device's VNC server asks for its own sign-in: the fields it wants. */
export type CredentialsRequest = { fields: string[]; send(credentials: VncCredentials): void };

/** noVNC and xterm.js load only when a session of their kind starts (they stay out of every other page). */
const loadViewer = (kind: RemoteSessionKind) =>
  kind === 'control'
    ? import('./remote-screen').then((m) => ({
        attach: (target: HTMLElement, socket: WebSocket, handlers: ViewerHandlers) =>
          m.attachScreen(target, socket, handlers),
      }))
    : import('./remote-terminal').then((m) => ({
        attach: (target: HTMLElement, socket: WebSocket) => m.attachTerminal(target, socket),
      }));

export type RemoteSessionHandle = RemoteState & {
  kind: RemoteSessionKind | null;
  /** Set while the device's VNC server waits for its sign-in. */
  credentials: CredentialsRequest | null;
  connect(kind: RemoteSessionKind): void;
  disconnect(): void;
};

/**
 * One remote session of the page: creates it, opens the tunnel's WebSocket at once (its
 * token is good for 60 s, and the relay holds bytes until the device's end joins), polls the
 * session while the device's user is asked, joins the socket to noVNC or xterm.js in
 * `target`, and ends it on Disconnect or when the page goes away.
 */
export function useRemoteSession(zoneId: number, deviceId: number, target: RefObject<HTMLElement | null>) {
  const [state, dispatch] = useReducer(remoteReducer, INITIAL_REMOTE_STATE);
  const [kind, setKind] = useState<RemoteSessionKind | null>(null);
  const [credentials, setCredentials] = useState<CredentialsRequest | null>(null);
  const live = useRef<{ socket?: WebSocket; viewer?: Viewer; sessionId?: number }>({});

  const release = useCallback(() => {
    const { socket, viewer } = live.current;
    viewer?.detach();
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(1000);
    live.current = { sessionId: live.current.sessionId };
  }, []);

  const connect = useCallback(
    (kind: RemoteSessionKind) => {
      release();
      live.current = {};
      setCredentials(null);
      setKind(kind);
      dispatch({ type: 'start' });
      void (async () => {
        const viewerModule = loadViewer(kind);
        let created;
        try {
          created = await createRemoteSession(zoneId, deviceId, kind);
        } catch (error) {
          dispatch({ type: 'createFailed', error });
          return;
        }
        live.current.sessionId = created.id;
        dispatch({ type: 'created', session: created });
        let viewer;
        try {
          viewer = await viewerModule;
        } catch (error) {
          dispatch({ type: 'createFailed', error });
          void endRemoteSession(zoneId, created.id).catch(() => undefined);
          return;
        }
        const element = target.current;
        if (!element || live.current.sessionId !== created.id) return;
        const socket = new WebSocket(tunnelUrl(created.tunnel_path, created.token));
        socket.binaryType = 'arraybuffer';
        live.current.socket = socket;
        // A socket released for a newer session no longer speaks for the page.
        const isCurrent = () => live.current.socket === socket;
        socket.addEventListener('open', () => isCurrent() && dispatch({ type: 'socketOpen' }));
        socket.addEventListener('message', () => isCurrent() && dispatch({ type: 'deviceBytes', kind }), {
          once: true,
        });
        socket.addEventListener('close', (event) => {
          // The terminal stays readable after the end; the next Connect or leaving the page clears it.
          if (isCurrent()) dispatch({ type: 'closed', code: event.code });
        });
        live.current.viewer = viewer.attach(element, socket, {
          onConnected: () => {
            setCredentials(null);
            dispatch({ type: 'handshakeDone' });
          },
          onFailed: () => {
            setCredentials(null);
            dispatch({ type: 'viewerFailed' });
          },
          onCredentials: (fields, send) =>
            isCurrent() &&
            setCredentials({
              fields,
              send: (values) => {
                setCredentials(null);
                send(values);
              },
            }),
        });
      })();
    },
    [zoneId, deviceId, target, release],
  );

  const disconnect = useCallback(() => {
    const { sessionId, socket } = live.current;
    setCredentials(null);
    dispatch({ type: 'disconnect' });
    const close = () => {
      if (socket && socket.readyState !== WebSocket.CLOSED) socket.close(1000);
      else dispatch({ type: 'closed', code: 1000 });
    };
    if (sessionId === undefined) return close();
    // Ending through the API closes both ends and records who ended it; the socket closes after.
    endRemoteSession(zoneId, sessionId).then(close, close);
  }, [zoneId]);

  // While the device's end is awaited, the session's state tells consent and refusal.
  const isWaiting =
    state.status === 'awaitingConsent' || state.status === 'consentGranted' || state.status === 'tunnelOpening';
  useEffect(() => {
    if (!isWaiting || state.sessionId === null) return;
    const id = state.sessionId;
    const controller = new AbortController();
    const timer = setInterval(() => {
      fetchRemoteSession(zoneId, id, controller.signal).then(
        (session) => dispatch({ type: 'polled', session }),
        () => undefined,
      );
    }, REMOTE_POLL_MS);
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [isWaiting, state.sessionId, zoneId]);

  // Leaving the page ends a live session rather than leaving it to the idle timeout.
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  useEffect(
    () => () => {
      const { sessionId } = live.current;
      if (sessionId !== undefined && isLiveStatus(stateRef.current.status)) {
        void endRemoteSession(zoneId, sessionId).catch(() => undefined);
      }
      release();
    },
    [zoneId, release],
  );

  return { ...state, kind, credentials, connect, disconnect } satisfies RemoteSessionHandle;
}
