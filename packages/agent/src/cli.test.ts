import { afterEach, describe, expect, it, vi } from 'vitest';
import { main, parseArgs } from './cli.js';
import { AGENT_VERSION } from './version.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseArgs', () => {
  it('reads positionals, valued flags and switches', () => {
    const flags = parseArgs(['run', '--once', '--state', '/tmp/s.json', '--wait=5', '--allow-changes']);
    expect(flags.positional).toEqual(['run']);
    expect(flags.values.get('state')).toBe('/tmp/s.json');
    expect(flags.values.get('wait')).toBe('5');
    expect([...flags.switches].sort()).toEqual(['allow-changes', 'once']);
  });

  it('refuses a flag without its value', () => {
    expect(() => parseArgs(['enroll', '--server'])).toThrow(/--server needs a value/);
  });
});

describe('patchwell-agent', () => {
  it('prints its version', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(await main(['version'])).toBe(0);
    expect(log).toHaveBeenCalledWith(AGENT_VERSION);
  });

  it('answers usage errors with exit code 2', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['enroll', '--key', 'k'])).toBe(2);
    expect(await main(['enroll', '--server', 'not a url', '--key', 'k'])).toBe(2);
    expect(await main(['enroll', '--server', 'http://127.0.0.1:9', '--key', 'k', '--machine-id', 'a b'])).toBe(2);
    expect(await main(['frobnicate'])).toBe(2);
  });

  it('asks for enrolment when run has no state', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await main(['run', '--once', '--state', '/nonexistent/dir/state.json'])).toBe(1);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/enroll/);
  });
});
