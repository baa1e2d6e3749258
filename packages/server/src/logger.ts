import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type LogFn, type Logger } from 'pino';
import pretty from 'pino-pretty';

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

/** `json`: one JSON object a line (for log collectors); `pretty`: lines a person reads. */
export type LogFormat = 'json' | 'pretty';

/**
 * The format when `LOG_FORMAT` is not set: lines for a person (a terminal, or
 * `NODE_ENV=development`), JSON for everything else (a service manager, a container, a pipe).
 */
export function chooseLogFormat(
  explicit: LogFormat | undefined,
  environment: string,
  isTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  if (explicit) return explicit;
  return environment === 'development' || isTerminal ? 'pretty' : 'json';
}

/** The server's pino logger: credentials and query parameters redacted; JSON lines, or pretty lines for a person. */
export function createLogger(
  level: string,
  options: { format?: LogFormat; destination?: DestinationStream | NodeJS.WritableStream; colorize?: boolean } = {},
): Logger {
  const base = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, req: serializeRequest },
  };
  if (options.format === 'pretty') {
    // In this thread and synchronous: a line logged just before an exit is not lost.
    const stream = pretty({
      colorize: options.colorize ?? (options.destination ? false : process.stdout.isTTY === true),
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname',
      sync: true,
      ...(options.destination ? { destination: options.destination } : {}),
    });
    return pino(base, stream);
  }
  if (options.destination) return pino(base, options.destination as DestinationStream);
  return pino(base);
}

/** Agents check in every minute or faster: a line per check-in would bury everything else. */
const QUIET_PREFIX = '/api/agent/v1/';

function isQuiet(request: FastifyRequest, reply?: FastifyReply): boolean {
  return request.url.startsWith(QUIET_PREFIX) && (reply === undefined || reply.statusCode < 400);
}

/**
 * Fastify's request log lines, with the agents' successful requests at `debug` instead of
 * `info`. A failed one (4xx, 5xx, an error) keeps its usual level.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (isQuiet(request)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (!error && isQuiet(request, reply))
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply);
  }
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * Fastify's child logger factory, giving each request a logger that is made on its first line
 * at an enabled level. Fastify makes a pino child per request for its request id, and with our
 * redaction (wildcard paths) pino passes every binding through the redactor as it makes one:
 * about 17 µs a request, the largest single cost of an agent check-in, for a logger that most
 * requests never write to. The lines written are the same: the real child has the same
 * bindings and options.
 */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  let real: FastifyBaseLogger | undefined;
  const get = () => (real ??= parent.child(bindings, options));
  const root = parent as Logger;
  // A route's own level (`logLevel`) or, as pino children do, the parent's.
  const enabled = (method: (typeof LOG_METHODS)[number]) =>
    options.level === undefined
      ? root.isLevelEnabled(method)
      : root.levels.values[method]! >= (root.levels.values[options.level] ?? Infinity);
  const write = (method: (typeof LOG_METHODS)[number]): LogFn =>
    ((...args: Parameters<LogFn>) => {
      if (real) return real[method](...args);
      if (enabled(method)) return get()[method](...args);
    }) as LogFn;
  const lazy: FastifyBaseLogger = {
    get level() {
      return real?.level ?? options.level ?? parent.level;
    },
    set level(level: string) {
      get().level = level;
    },
    fatal: write('fatal'),
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    trace: write('trace'),
    silent: () => undefined,
    child: (b: Bindings, o?: ChildLoggerOptions) => get().child(b, o),
  };
  return lazy;
}
