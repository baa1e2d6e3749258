import { DrizzleQueryError } from 'drizzle-orm/errors';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger, redactUrl } from './logger';

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
