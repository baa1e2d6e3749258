import type { RawData, WebSocket } from 'ws';
import type { z } from 'zod';
import {
  REMOTE_CLOSE_ENDED_BY_USER,
  REMOTE_ENDED_BY_USER_TEXT,
  REMOTE_TRANSCRIPT_MAX_BYTES,
  type RemoteSessionKind,
  type ZRelayOutcome,
} from '@patchwell/core/remote/remote-sessions.schema';

/**
 * The in-process relay of one node (decision 0016): each session's browser and agent sockets,
 * joined once both are here, bytes copied both ways and counted, a shell's output kept as its
 * transcript (bounded), and the idle timer. Nothing here must survive a restart: a session
 * whose node goes away ends with its sockets, and the row keeps what was counted at the end.
 */

export type RelayEnd = 'browser' | 'agent';

/** What the relay knows of a session when an end attaches. */
export type RelaySession = { id: number; kind: RemoteSessionKind; idleMs: number };

/** What the relay reports when a session ends (once); the same shape travels between nodes. */
export type RelayOutcome = z.infer<typeof ZRelayOutcome>;

export type RelayHooks = {
  /** Both ends are here: the session is connected. */
  onConnected(id: number): void;
  /** The session ended (an end closed, idle, or {@link RelayHub.end}); called once per session. */
  onEnded(outcome: RelayOutcome): void;
};

/** Close codes the tunnel's ends receive (4000-4999 are the application's). */
export const TUNNEL_CLOSE = {
  normal: 1000,
  unauthorized: 4401,
  refused: 4403,
  unavailable: 4503,
  idle: 4408,
  tooMuch: 1009,
} as const;

/** Bytes one end may send before the other end is there. */
export const RELAY_PENDING_MAX_BYTES = 1024 * 1024;

type Pair = {
  session: RelaySession;
  browser?: WebSocket;
  agent?: WebSocket;
  pending: { end: RelayEnd; data: Buffer; binary: boolean }[];
  pendingBytes: number;
  toDevice: number;
  fromDevice: number;
  transcript: Buffer[];
  transcriptBytes: number;
  truncated: boolean;
  connected: boolean;
  idle: NodeJS.Timeout | undefined;
  ended: boolean;
};

export type RelayHub = {
  /**
   * Attaches one end of a session (its row already claimed that end, once); false when that
   * end is already here (a forwarded end presented twice).
   */
  attach(session: RelaySession, end: RelayEnd, socket: WebSocket): boolean;
  /**
   * Ends the session on this node, closing both ends with `code` and `reason`; returns what
   * was relayed. With `quiet` the caller records the end itself (no `onEnded`).
   */
  end(id: number, why: string, code?: number, reason?: string, quiet?: boolean): RelayOutcome | undefined;
  /** Whether the session has a socket on this node. */
  has(id: number): boolean;
  /** Sessions relayed on this node. */
  readonly size: number;
  /** Ends every session (the server is closing). */
  closeAll(): void;
};

const toBuffer = (data: RawData): Buffer =>
  Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);

export function createRelayHub(hooks: RelayHooks): RelayHub {
  const pairs = new Map<number, Pair>();

  const finish = (pair: Pair, why: string, code: number, reason: string, quiet = false): RelayOutcome | undefined => {
    if (pair.ended) return undefined;
    pair.ended = true;
    clearTimeout(pair.idle);
    pairs.delete(pair.session.id);
    for (const socket of [pair.browser, pair.agent]) {
      if (socket && socket.readyState <= 1) socket.close(code, reason);
    }
    const outcome: RelayOutcome = {
      id: pair.session.id,
      reason: why,
      bytesToDevice: pair.toDevice,
      bytesFromDevice: pair.fromDevice,
      connected: pair.connected,
      transcript: pair.session.kind === 'shell' ? Buffer.concat(pair.transcript).toString('utf8') : null,
      transcriptTruncated: pair.truncated,
    };
    if (!quiet) hooks.onEnded(outcome);
    return outcome;
  };

  const touch = (pair: Pair) => {
    clearTimeout(pair.idle);
    pair.idle = setTimeout(() => finish(pair, 'idle', TUNNEL_CLOSE.idle, 'idle'), pair.session.idleMs);
    pair.idle.unref();
  };

  const deliver = (pair: Pair, from: RelayEnd, data: Buffer, binary: boolean) => {
    const to = from === 'browser' ? pair.agent : pair.browser;
    if (from === 'browser') pair.toDevice += data.length;
    else {
      pair.fromDevice += data.length;
      if (pair.session.kind === 'shell') keep(pair, data);
    }
    to!.send(data, { binary });
  };

  const keep = (pair: Pair, data: Buffer) => {
    const room = REMOTE_TRANSCRIPT_MAX_BYTES - pair.transcriptBytes;
    if (room <= 0) {
      pair.truncated = true;
      return;
    }
    const part = data.length > room ? data.subarray(0, room) : data;
    if (part.length < data.length) pair.truncated = true;
    pair.transcript.push(Buffer.from(part));
    pair.transcriptBytes += part.length;
  };

  return {
    attach(session, end, socket) {
      let pair = pairs.get(session.id);
      if (!pair) {
        pair = {
          session,
          pending: [],
          pendingBytes: 0,
          toDevice: 0,
          fromDevice: 0,
          transcript: [],
          transcriptBytes: 0,
          truncated: false,
          connected: false,
          idle: undefined,
          ended: false,
        };
        pairs.set(session.id, pair);
      }
      const p = pair;
      if (p[end] || p.ended) return false;
      p[end] = socket;
      touch(p);
      socket.on('message', (data, isBinary) => {
        if (p.ended) return;
        touch(p);
        const buf = toBuffer(data);
        if (p.connected) return deliver(p, end, buf, isBinary);
        // The other end is not here yet: hold a little (an RFB client speaks only after the
        // server's greeting, but a terminal may type ahead).
        p.pendingBytes += buf.length;
        if (p.pendingBytes > RELAY_PENDING_MAX_BYTES) {
          finish(p, end, TUNNEL_CLOSE.tooMuch, 'too much');
          return;
        }
        p.pending.push({ end, data: buf, binary: isBinary });
      });
      socket.on('close', (code) => {
        // The device's user pressed "End session": the console is told so.
        if (end === 'agent' && code === REMOTE_CLOSE_ENDED_BY_USER) {
          return finish(p, 'user', REMOTE_CLOSE_ENDED_BY_USER, REMOTE_ENDED_BY_USER_TEXT);
        }
        finish(p, end, TUNNEL_CLOSE.normal, `${end} closed`);
      });
      socket.on('error', () => finish(p, end, TUNNEL_CLOSE.normal, `${end} failed`));
      if (p.browser && p.agent && !p.connected) {
        p.connected = true;
        const held = p.pending;
        p.pending = [];
        p.pendingBytes = 0;
        for (const m of held) deliver(p, m.end, m.data, m.binary);
        hooks.onConnected(session.id);
      }
      return true;
    },
    end(id, why, code = TUNNEL_CLOSE.normal, reason = why, quiet = false) {
      const pair = pairs.get(id);
      return pair ? finish(pair, why, code, reason, quiet) : undefined;
    },
    has: (id) => pairs.has(id),
    get size() {
      return pairs.size;
    },
    closeAll() {
      for (const pair of [...pairs.values()]) finish(pair, 'server closing', 1001, 'server closing');
    },
  };
}
