import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
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

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that makes its pino child on the first line at an enabled level. Fastify
 * makes a pino child per request for its request id, and with our redaction (wildcard paths)
 * pino passes every binding through the redactor as it makes one (about 17 µs a request in a
 * profile on a loaded machine), for a logger that most requests never write to.
 * The lines are the same: the real child has the same bindings and options. A class, so that
 * a request costs one object and no closures.
 */
class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private made(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }

  /** As a pino child decides: the route's own level (`logLevel`), else the parent's. */
  private enabled(method: LogMethod): boolean {
    const { level } = this.options;
    if (level === undefined) return this.parent.isLevelEnabled(method);
    const values = this.parent.levels.values;
    return values[method]! >= (values[level] ?? Infinity);
  }

  private write(method: LogMethod, args: unknown[]): void {
    if (this.real || this.enabled(method)) (this.made()[method] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.real?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made().level = level;
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}

/** Fastify's child logger factory: a {@link LazyChildLogger} per request. */
export function lazyChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(parent as Logger, bindings, options) as unknown as FastifyBaseLogger;
}
