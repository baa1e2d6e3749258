import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';

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
});
