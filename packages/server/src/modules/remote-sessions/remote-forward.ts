import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { ZRelayOutcome, type InternalEndBody } from '@patchwell/core/remote/remote-sessions.schema';
import type { RelayEnd, RelayOutcome } from './remote-relay';

/**
 * Several server nodes on one database (decision 0016): a session's two ends may reach
 * different nodes. The node that claimed the first end relays the session; the node that
 * claims the second pipes its end to the relay node over a node-to-node WebSocket, and asks
 * it to end a session it holds. Both requests are signed with a key derived from the
 * server's secret key (every node of one database shares it) and a timestamp, so a
 * recorded request is refused after {@link SIGNATURE_TTL_S} seconds.
 */

/** The header carrying `timestamp.hmac` on node-to-node requests. */
export const RELAY_SIGNATURE_HEADER = 'x-patchwell-relay';
const SIGNATURE_TTL_S = 60;

export const internalTunnelPath = (id: number, end: RelayEnd) => `/internal/remote-sessions/${id}/${end}`;
export const internalEndPath = (id: number) => `/internal/remote-sessions/${id}/end`;

/** What a signature covers: the request's kind, the session and the end. */
export const tunnelPurpose = (id: number, end: RelayEnd) => `tunnel:${id}:${end}`;
export const endPurpose = (id: number) => `end:${id}`;

/** The relay's own key: the secret key never signs anything directly. */
const relayKey = (secretKey: Buffer) => createHmac('sha256', secretKey).update('patchwell remote relay').digest();

const mac = (secretKey: Buffer, timestamp: number, purpose: string) =>
  createHmac('sha256', relayKey(secretKey)).update(`${timestamp}:${purpose}`).digest('hex');

export function signRelayRequest(secretKey: Buffer, purpose: string, nowMs: number): string {
  const timestamp = Math.floor(nowMs / 1000);
  return `${timestamp}.${mac(secretKey, timestamp, purpose)}`;
}

export function verifyRelayRequest(
  secretKey: Buffer,
  purpose: string,
  header: string | string[] | undefined,
  nowMs: number,
): boolean {
  if (typeof header !== 'string') return false;
  const match = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_TTL_S) return false;
  return timingSafeEqual(Buffer.from(match[2]!, 'hex'), Buffer.from(mac(secretKey, timestamp, purpose), 'hex'));
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * This node's name in `relay_node`: PATCHWELL_NODE_URL, else the loopback address it listens
 * on (other nodes on this machine reach it there), else a name no other node can reach.
 */
export function relayNodeName(nodeUrl: string | undefined, address: AddressInfo | string | null, fallback: string) {
  if (nodeUrl) return nodeUrl;
  if (address && typeof address === 'object' && LOOPBACK.test(address.address)) {
    const host =
      address.family === 'IPv6' && !address.address.startsWith('::ffff:')
        ? `[${address.address}]`
        : address.address.replace(/^::ffff:/, '');
    return `http://${host}:${address.port}`;
  }
  return fallback;
}

/** Whether a `relay_node` value is another node's address (not a process-local name). */
export const isNodeUrl = (node: string | null): node is string => !!node && /^https?:\/\//.test(node);

/** Close codes a peer may send on (1005, 1006 and 1015 only describe a close, never travel). */
const sendableCode = (code: number) =>
  (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999) ? code : 1000;

function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
  else if (socket.readyState === WebSocket.OPEN) socket.close(sendableCode(code), reason);
}

/**
 * Pipes `local` (an end this node claimed, paused) to the relay node's end of the session.
 * Frames go both ways as they are; each side's close reaches the other with its code and
 * reason. When the relay node cannot be reached, `local` is closed with `unreachable`.
 */
export function forwardEnd(
  local: WebSocket,
  target: { url: string; path: string; signature: string; maxPayload: number },
  unreachable: { code: number; reason: string },
  onError: (err: unknown) => void,
): void {
  const url = new URL(target.path, target.url);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const remote = new WebSocket(url, {
    headers: { [RELAY_SIGNATURE_HEADER]: target.signature },
    maxPayload: target.maxPayload,
  });
  let opened = false;
  remote.once('open', () => {
    opened = true;
    local.resume();
  });
  // `local` is paused until the relay node's socket is open, so nothing is sent early.
  local.on('message', (data, binary) => remote.send(data as Buffer, { binary }));
  remote.on('message', (data, binary) => {
    if (local.readyState === WebSocket.OPEN) local.send(data as Buffer, { binary });
  });
  local.on('close', (code, reason) => closeWith(remote, code, reason.toString()));
  remote.on('close', (code, reason) => {
    local.resume();
    if (opened) closeWith(local, code, reason.toString());
    else closeWith(local, unreachable.code, unreachable.reason);
  });
  remote.on('error', (err) => {
    onError(err);
    local.resume();
    closeWith(local, unreachable.code, unreachable.reason);
  });
  local.on('error', () => remote.terminate());
}

/** Ends a session held by another node; undefined when that node does not hold it (or is gone). */
export async function endOnNode(
  nodeUrl: string,
  id: number,
  signature: string,
  end: InternalEndBody,
): Promise<RelayOutcome | undefined> {
  const res = await fetch(new URL(internalEndPath(id), nodeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [RELAY_SIGNATURE_HEADER]: signature },
    body: JSON.stringify(end),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`relay node answered ${res.status} to end session ${id}`);
  return ZRelayOutcome.parse(await res.json());
}
