import { REMOTE_ENDED_BY_USER_TEXT, type RemoteSession } from '@patchwell/core/remote/remote-sessions.schema';
import { TEXTS } from '@patchwell/core/texts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { CONSOLE_TEXTS } from '../../texts';
import {
  INITIAL_REMOTE_STATE,
  createFailure,
  remoteReducer,
  type RemoteEvent,
  type RemoteState,
} from './remote-status';

const session = (overrides: Partial<RemoteSession> = {}): RemoteSession => ({
  id: 41,
  device_id: 7,
  kind: 'control',
  state: 'pending',
  consent: null,
  created_by: 1,
  created_at: '2026-11-28T08:00:00Z',
  connected_at: null,
  ended_at: null,
  end_reason: null,
  bytes_to_device: 0,
  bytes_from_device: 0,
  ...overrides,
});

/** The statuses a run of events passes through. */
function run(events: RemoteEvent[], from: RemoteState = INITIAL_REMOTE_STATE) {
  const seen: RemoteState[] = [];
  let state = from;
  for (const event of events) {
    state = remoteReducer(state, event);
    seen.push(state);
  }
  return { state, statuses: seen.map((s) => s.status) };
}

const upTo = (events: RemoteEvent[]) => run(events).state;

const STARTED: RemoteEvent[] = [{ type: 'start' }, { type: 'created', session: session() }, { type: 'socketOpen' }];

describe('remoteReducer', () => {
  it('walks a consented screen session through the spec’s statuses to connected and back to disconnected', () => {
    const { statuses, state } = run([
      ...STARTED,
      { type: 'polled', session: session() },
      { type: 'polled', session: session({ state: 'open', consent: 'granted' }) },
      { type: 'deviceBytes', kind: 'control' },
      { type: 'handshakeDone' },
      { type: 'disconnect' },
      { type: 'closed', code: 1000 },
    ]);
    expect(statuses).toEqual([
      'authenticating',
      'tunnelOpening',
      'awaitingConsent',
      'awaitingConsent',
      'consentGranted',
      'connecting',
      'connected',
      'disconnecting',
      'disconnected',
    ]);
    expect(state).toMatchObject({ sessionId: 41, message: null });
  });

  it('counts a shell as connected on its first bytes (there is no handshake)', () => {
    expect(upTo([...STARTED, { type: 'deviceBytes', kind: 'shell' }]).status).toBe('connected');
  });

  it('never goes back: a late poll of a pending session leaves a connecting session connecting', () => {
    const connecting = upTo([...STARTED, { type: 'deviceBytes', kind: 'control' }]);
    expect(remoteReducer(connecting, { type: 'polled', session: session() }).status).toBe('connecting');
    expect(remoteReducer(connecting, { type: 'polled', session: session({ state: 'open' }) }).status).toBe(
      'connecting',
    );
  });

  it('shows the spec’s refusal text when the user says no, however it is learnt first', () => {
    const byPoll = run([...STARTED, { type: 'polled', session: session({ state: 'refused', consent: 'refused' }) }]);
    expect(byPoll.state).toMatchObject({ status: 'connectionFailed', message: TEXTS.remote.noConsent });
    // The socket's close that follows changes nothing.
    expect(remoteReducer(byPoll.state, { type: 'closed', code: 4403 })).toBe(byPoll.state);
    expect(upTo([...STARTED, { type: 'closed', code: 4403 }])).toMatchObject({
      status: 'connectionFailed',
      message: TEXTS.remote.noConsent,
    });
    expect(TEXTS.remote.noConsent).toBe(
      'There is either no active user or the user did not grant permission for the remote session.',
    );
  });

  it.each([
    [4401, 'unauthorized', TEXTS.remote.unauthorized],
    [4503, 'unavailable', TEXTS.remote.unableToConnect],
    [1006, 'connectionFailed', TEXTS.remote.unableToConnect],
    [1000, 'connectionFailed', TEXTS.remote.unableToConnect],
  ] as const)('maps a close with %i before the device answered to %s', (code, status, message) => {
    expect(upTo([...STARTED, { type: 'closed', code }])).toMatchObject({ status, message });
  });

  it('ends a connected session as disconnected when the device closes it, with the error text when it broke', () => {
    const connected = upTo([...STARTED, { type: 'deviceBytes', kind: 'shell' }]);
    expect(remoteReducer(connected, { type: 'closed', code: 1000 })).toMatchObject({
      status: 'disconnected',
      message: null,
    });
    expect(remoteReducer(connected, { type: 'closed', code: 1006 })).toMatchObject({
      status: 'disconnected',
      message: TEXTS.remote.unableToConnect,
    });
    expect(remoteReducer(connected, { type: 'closed', code: 4408 })).toMatchObject({ status: 'disconnected' });
    // The device's user pressed End session.
    expect(remoteReducer(connected, { type: 'closed', code: 4001 })).toMatchObject({
      status: 'disconnected',
      message: REMOTE_ENDED_BY_USER_TEXT,
    });
  });

  it('says the device is installing remote control, from the close code or the polled session', () => {
    const waiting = upTo(STARTED);
    expect(remoteReducer(waiting, { type: 'closed', code: 4002 })).toMatchObject({
      status: 'installing',
      message: TEXTS.remote.installing,
    });
    const polled = session({ state: 'refused', consent: 'refused', end_reason: 'installing' });
    expect(upTo([...STARTED, { type: 'polled', session: polled }])).toMatchObject({
      status: 'installing',
      message: TEXTS.remote.installing,
    });
    // A user's refusal stays a refusal.
    const refused = session({ state: 'refused', consent: 'refused', end_reason: 'refused' });
    expect(upTo([...STARTED, { type: 'polled', session: refused }])).toMatchObject({ status: 'connectionFailed' });
  });

  it('reports an expired session and a viewer failure with the spec’s texts', () => {
    expect(upTo([...STARTED, { type: 'polled', session: session({ state: 'expired' }) }])).toMatchObject({
      status: 'connectionFailed',
      message: TEXTS.remote.unableToConnect,
    });
    expect(upTo([...STARTED, { type: 'deviceBytes', kind: 'control' }, { type: 'viewerFailed' }])).toMatchObject({
      status: 'error',
      message: TEXTS.remote.setupFailed,
    });
  });

  it('starts afresh on a new Connect after a failure', () => {
    const failed = upTo([...STARTED, { type: 'closed', code: 4401 }]);
    expect(remoteReducer(failed, { type: 'start' })).toEqual({
      status: 'authenticating',
      message: null,
      sessionId: null,
    });
  });

  it('has a human text for each of the fourteen statuses', () => {
    expect(Object.keys(CONSOLE_TEXTS.remote.status)).toHaveLength(14);
    for (const text of Object.values(CONSOLE_TEXTS.remote.status)) expect(text).toMatch(/^[A-Z]/);
  });
});

describe('createFailure', () => {
  const refused = (status: number, code: string | undefined, message: string) =>
    createFailure(new ApiError(status, { code, message }, '/api/servers/7/remote-sessions'));

  it.each([
    [409, 'remote.offline', TEXTS.remote.offline, 'unavailable'],
    [409, 'remote.initializing', TEXTS.remote.initializing, 'initializing'],
    [403, 'remote.upgrade', TEXTS.remote.upgrade, 'unauthorized'],
    [403, 'authz.forbidden', TEXTS.remote.unauthorized, 'unauthorized'],
    [409, 'remote.busy', 'A remote session with this device is already open.', 'unavailable'],
  ])('maps %i %s to its text and status', (status, code, message, expected) => {
    expect(refused(status, code, message)).toEqual({ status: expected, message });
  });

  it('says the setup failed for anything else', () => {
    expect(refused(500, 'internal', 'boom')).toEqual({ status: 'error', message: TEXTS.remote.setupFailed });
    expect(createFailure(new TypeError('Failed to fetch'))).toEqual({
      status: 'error',
      message: TEXTS.remote.setupFailed,
    });
  });

  it('names Patchwell, not Automox, in the initializing text', () => {
    expect(TEXTS.remote.initializing).toBe(
      'Patchwell is currently initializing the device and is unable to start a remote session.',
    );
  });
});
