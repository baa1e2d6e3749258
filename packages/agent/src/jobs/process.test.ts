import { describe, expect, it } from 'vitest';
import { runProcess } from './process';

describe('runProcess', () => {
  it('ends the process group when its signal is aborted (a notice about a session that ended)', async () => {
    const gone = new AbortController();
    const aborted = runProcess({ command: 'sh', args: ['-c', 'sleep 600; echo never'] }, { signal: gone.signal });
    gone.abort();
    const out = await aborted;
    expect(out.signal).toBe('SIGTERM');
    expect(out.stdout).toBe('');
    expect(out.timedOut).toBe(false);
    // A signal aborted before the start ends the process at once.
    const late = await runProcess({ command: 'sleep', args: ['600'] }, { signal: gone.signal });
    expect(late.signal).toBe('SIGTERM');
  });
});
