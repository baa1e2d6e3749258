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

/** The server's pino logger: JSON lines, credentials redacted; pretty in development. */
export function createLogger(
  level: string,
  options: { pretty?: boolean; destination?: DestinationStream } = {},
): Logger {
  const base = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (options.destination) return pino(base, options.destination);
  if (options.pretty)
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } });
  return pino(base);
}
