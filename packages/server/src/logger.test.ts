import { DrizzleQueryError } from 'drizzle-orm/errors';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { RequestLogController, chooseLogFormat, createLogger, lazyChildLogger, redactUrl } from './logger';

describe('createLogger', () => {
  it('redacts credentials wherever a log line carries them', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { destination: { write: (l: string) => void lines.push(l) } });
    logger.info({
      req: { headers: { authorization: 'Basic c2VjcmV0', cookie: 'pw_session=abc' } },
      res: { headers: { 'set-cookie': 'pw_session=def' } },
      body: { email: 'a@b.test', password: 'hunter2-hunter2', password_confirmation: 'hunter2-hunter2' },
      password: 'top-level-secret',
    });
    const text = lines.join('');
    for (const secret of ['c2VjcmV0', 'pw_session', 'hunter2', 'top-level-secret']) expect(text).not.toContain(secret);
    expect(text).toContain('a@b.test');
    expect(text).toContain('[redacted]');
  });

  it('keeps the SQL of a failed query but not its parameters', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { destination: { write: (l: string) => void lines.push(l) } });
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
    const cause = Object.assign(new Error('duplicate key value'), { code: '23505' });
    const err = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['a@b.test', hash],
      cause,
    );
    logger.error({ err: new Error('sign-up failed', { cause: err }) }, 'unhandled error');
    logger.error({ err }, 'unhandled error');
    const text = lines.join('');
    expect(text).not.toContain(hash);
    expect(text).not.toContain('c2FsdHNhbHQ');
    expect(text).toContain('insert into \\"users\\"');
    expect(text).toContain('params: [redacted]');
    expect(text).toContain('duplicate key value');
  });

  it('logs request URLs without secret query values such as invitation tokens', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { destination: { write: (l: string) => void lines.push(l) } });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    app.get('/console/accept-invite', async () => 'ok');
    await app.inject('/console/accept-invite?token=live-invitation-token&o=3');
    await app.close();
    const text = lines.join('');
    expect(text).toContain('/console/accept-invite?token=[redacted]&o=3');
    expect(text).not.toContain('live-invitation-token');
  });

  it('redacts every secret-looking query parameter and keeps the rest', () => {
    expect(redactUrl('/a?key=k1&o=2&password=p#x')).toBe('/a?key=[redacted]&o=2&password=[redacted]#x');
    expect(redactUrl('/a?monkey=1')).toBe('/a?monkey=1');
  });
});

describe('log format', () => {
  it('writes lines a person reads in pretty format, and JSON objects otherwise', () => {
    const pretty: string[] = [];
    const terminal = new Writable({
      write(chunk: Buffer, _encoding, done) {
        pretty.push(chunk.toString());
        done();
      },
    });
    createLogger('info', { format: 'pretty', destination: terminal }).info({ device: 7 }, 'policy run started');
    const text = pretty.join('');
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: policy run started\n/);
    expect(text).toContain('device: 7');
    expect(() => JSON.parse(pretty[0]!)).toThrow();

    const json: string[] = [];
    createLogger('info', { format: 'json', destination: { write: (l: string) => void json.push(l) } }).info(
      'policy run started',
    );
    expect(JSON.parse(json[0]!)).toMatchObject({ level: 30, msg: 'policy run started' });
  });

  it('is pretty in a terminal or in development, JSON in production and whenever LOG_FORMAT says json', () => {
    expect(chooseLogFormat(undefined, 'production', true)).toBe('pretty');
    expect(chooseLogFormat(undefined, 'development', false)).toBe('pretty');
    expect(chooseLogFormat(undefined, 'production', false)).toBe('json');
    expect(chooseLogFormat('json', 'development', true)).toBe('json');
    expect(chooseLogFormat('pretty', 'production', false)).toBe('pretty');
  });

  it('reads LOG_FORMAT from the environment and refuses other values', () => {
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be json or pretty.');
  });
});

describe('request log lines', () => {
  async function requestLines(level: string) {
    const lines: { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } }[] = [];
    const logger = createLogger(level, { destination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, logController: new RequestLogController() });
    app.post('/api/agent/v1/checkin', async () => ({ commands: [] }));
    app.post('/api/agent/v1/inventory', async (_req, reply) => reply.code(401).send({ message: 'no' }));
    app.get('/api/servers', async () => ({ data: [] }));
    await app.inject({ method: 'POST', url: '/api/agent/v1/checkin', payload: {} });
    await app.inject({ method: 'POST', url: '/api/agent/v1/inventory', payload: {} });
    await app.inject('/api/servers');
    await app.close();
    return lines;
  }

  it('logs a successful agent check-in at debug, not one line each at info', async () => {
    const info = await requestLines('info');
    const urls = info.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    // A request's outcome is not known when it comes in: a failed agent request shows as completed.
    expect(urls).toEqual(['/api/servers']);
    expect(info.filter((l) => l.msg === 'request completed').map((l) => l.res!.statusCode)).toEqual([401, 200]);

    const debug = await requestLines('debug');
    const checkIns = debug.filter((l) => l.req?.url === '/api/agent/v1/checkin');
    expect(checkIns).toEqual([expect.objectContaining({ level: 20, msg: 'incoming request' })]);
    expect(debug.filter((l) => l.msg === 'request completed' && l.level === 20)).toHaveLength(1);
  });
});

describe('lazyChildLogger', () => {
  it('writes the same request lines as a pino child, with the request id and the route’s own level', async () => {
    const lines: { level: number; msg: string; reqId?: string; secret?: string }[] = [];
    const logger = createLogger('info', { destination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      childLoggerFactory: lazyChildLogger,
      disableRequestLogging: true,
    });
    app.get('/loud', async (request) => {
      request.log.debug('hidden at info');
      request.log.info({ password: 'hunter2-hunter2' }, 'loud info');
      return 'ok';
    });
    app.get('/quiet', { logLevel: 'warn' }, async (request) => {
      request.log.info('hidden at warn');
      request.log.warn('quiet warn');
      expect(request.log.level).toBe('warn');
      return 'ok';
    });
    await app.inject({ url: '/loud', headers: { 'x-request-id': 'r1' } });
    await app.inject('/quiet');
    await app.close();
    expect(lines.map((l) => l.msg)).toEqual(['loud info', 'quiet warn']);
    expect(lines.every((l) => typeof l.reqId === 'string' && l.reqId.length > 0)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });
});
