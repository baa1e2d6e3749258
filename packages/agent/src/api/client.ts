/**
 * The agent's HTTP client for `/api/agent/v1` (fetch only, no extra dependencies).
 * Network failures become `NetworkError`; HTTP failures become `AgentApiError` with the
 * server's error code, so the run loop can tell "unreachable" from "re-enrol" from "removed".
 */
import type WebSocket from 'ws';
import { openTunnel } from '../remote/tunnel.js';
import type {
  CheckinRequest,
  CheckinResponse,
  CommandResult,
  EnrollRequest,
  EnrollResponse,
  Inventory,
} from '../protocol.js';

/** The server answered with an error status. */
export class AgentApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'AgentApiError';
  }
}

/**
 * The server could not be reached (DNS, refused, reset, timeout), or answered that it cannot
 * serve now (5xx, 429): the request may succeed later, after `retryAfterMs` when it said so.
 */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown; retryAfterMs?: number }) {
    super(message, options);
    this.name = 'NetworkError';
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null;
}

/** `Retry-After` as milliseconds: delay-seconds or an HTTP date (RFC 9110 section 10.2.3); undefined when absent or bad. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export type AgentApi = {
  readonly server: string;
  /** The device token used for every call after enrolment. */
  setToken(token: string | null): void;
  enroll(body: EnrollRequest): Promise<EnrollResponse>;
  checkin(body: CheckinRequest, signal?: AbortSignal): Promise<CheckinResponse>;
  putInventory(body: Inventory): Promise<void>;
  postResult(commandId: number, body: CommandResult): Promise<void>;
  /**
   * Starts the download of a policy's installer (`GET /installers/{id}`): the body as a
   * stream, with the length the server announces. `signal` bounds the whole
   * transfer; the client's own timeout only bounds waiting for the answer's headers.
   */
  downloadInstaller(id: string, signal?: AbortSignal): Promise<InstallerDownload>;
  /** The signed-in user's answer to a remote session (`POST /remote-sessions/{id}/consent`). */
  /** The user's answer; `installing`: refused for now, the device is installing what remote control needs. */
  postRemoteConsent(sessionId: number, granted: boolean, options?: { installing?: boolean }): Promise<void>;
  /** Opens the agent's end of a remote session's tunnel (an outbound WebSocket with the device token). */
  openRemoteTunnel(sessionId: number): Promise<WebSocket>;
};

export type InstallerDownload = {
  body: ReadableStream<Uint8Array>;
  /** Content-Length, when sent. */
  sizeBytes: number | null;
};

export type ApiClientOptions = {
  token?: string | null;
  /** Per-request timeout beyond any long-poll wait. */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

/** The error of a failed answer: 5xx and 429 count as unreachable (gateways, overload). */
function failure(method: string, path: string, res: Response, text: string): Error {
  let code: string | null = null;
  let message = `${res.status} ${res.statusText}`;
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof parsed.code === 'string') code = parsed.code;
    if (typeof parsed.message === 'string') message = `${res.status} ${parsed.message}`;
  } catch {
    // Not JSON (a proxy's error page): keep the status line.
  }
  if (res.status >= 500 || res.status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    return new NetworkError(`${method} ${path}: ${message}`, retryAfterMs === undefined ? {} : { retryAfterMs });
  }
  return new AgentApiError(res.status, code, message);
}

export function createApiClient(server: string, options: ApiClientOptions = {}): AgentApi {
  const base = server.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  let token = options.token ?? null;

  async function call<T>(
    method: string,
    path: string,
    body: unknown,
    extra: { waitS?: number; signal?: AbortSignal } = {},
  ): Promise<T | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const timeout = AbortSignal.timeout(timeoutMs + (extra.waitS ?? 0) * 1000);
    const signal = extra.signal ? AbortSignal.any([timeout, extra.signal]) : timeout;
    let res: Response;
    try {
      res = await doFetch(`${base}/api/agent/v1${path}`, { method, headers, body: JSON.stringify(body), signal });
    } catch (err) {
      throw new NetworkError(`${method} ${path}: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw failure(method, path, res, text);
    return text ? (JSON.parse(text) as T) : undefined;
  }

  async function download(path: string, signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/octet-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(new Error('no answer in time')), timeoutMs);
    let res: Response;
    try {
      res = await doFetch(`${base}/api/agent/v1${path}`, {
        headers,
        signal: signal ? AbortSignal.any([waiting.signal, signal]) : waiting.signal,
      });
    } catch (err) {
      throw new NetworkError(`GET ${path}: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok || !res.body) throw failure('GET', path, res, await res.text().catch(() => ''));
    return res;
  }

  return {
    server: base,
    setToken(next) {
      token = next;
    },
    async enroll(body) {
      return (await call<EnrollResponse>('POST', '/enroll', body))!;
    },
    async checkin(body, signal) {
      return (await call<CheckinResponse>('POST', '/checkin', body, { waitS: body.wait_s, signal }))!;
    },
    async putInventory(body) {
      await call('PUT', '/inventory', body);
    },
    async postResult(commandId, body) {
      await call('POST', `/commands/${encodeURIComponent(String(commandId))}/result`, body);
    },
    async postRemoteConsent(sessionId, granted, options) {
      await call('POST', `/remote-sessions/${encodeURIComponent(String(sessionId))}/consent`, {
        granted,
        ...(options?.installing ? { installing: true } : {}),
      });
    },
    openRemoteTunnel(sessionId) {
      return openTunnel(base, token ?? '', sessionId);
    },
    async downloadInstaller(id, signal) {
      const res = await download(`/installers/${encodeURIComponent(id)}`, signal);
      const length = Number(res.headers.get('content-length'));
      return {
        body: res.body!,
        sizeBytes: res.headers.has('content-length') && Number.isSafeInteger(length) ? length : null,
      };
    },
  };
}
