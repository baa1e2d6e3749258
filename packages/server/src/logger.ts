import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths removed from every log line. Fastify's request serializer logs no headers, but a
 * handler logging a request, a reply or a body must not leak credentials either.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'password',
  'password_confirmation',
  'passwordHash',
  '*.password',
  '*.password_confirmation',
  '*.passwordHash',
  '*.*.password',
  '*.*.password_confirmation',
];

type QueryErrorLike = { params?: unknown; cause?: unknown };

function scrub(value: unknown, leaks: string[]): unknown {
  if (typeof value === 'string')
    return leaks.reduce((text, leak) => text.replaceAll(leak, 'params: [redacted]'), value);
  if (value === null || typeof value !== 'object') return value;
  const out = value as Record<string, unknown>;
  for (const key of Object.keys(out)) out[key] = key === 'params' ? '[redacted]' : scrub(out[key], leaks);
  return out;
}

/**
 * pino's error serializer, without the bound parameters a failed drizzle query puts in its
 * message, stack and `params` (password hashes, session ids, e-mails). The SQL text stays.
 */
export function serializeError(err: unknown): unknown {
  const leaks: string[] = [];
  for (let e = err as QueryErrorLike | undefined, depth = 0; e && depth < 8; e = e.cause as QueryErrorLike, depth++) {
    if (Array.isArray(e.params) && e.params.length > 0) leaks.push(`params: ${String(e.params)}`);
  }
  const serialized = pino.stdSerializers.err(err as Error);
  return leaks.length > 0 ? scrub(serialized, leaks) : serialized;
}

// Query parameters that carry a secret: invitation and reset links, keys pasted into URLs.
const SECRET_QUERY = /([?&](?:token|key|access_key|password)=)[^&#]*/gi;

/** Removes secret query values from a URL before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

type LoggedRequest = {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/**
 * The request as logged: Fastify's fields, with secret query values removed from the URL
 * (`/console/accept-invite?token=…` would otherwise put a live invitation in the logs).
 */
export function serializeRequest(req: LoggedRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    hostname: req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The server's pino logger: JSON lines, credentials and query parameters redacted; pretty in development. */
export function createLogger(
  level: string,
  options: { pretty?: boolean; destination?: DestinationStream } = {},
): Logger {
  const base = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
  };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty)
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } });
  return pino(base);
}
