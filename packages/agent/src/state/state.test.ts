import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultStatePath, readState, writeState, type AgentState } from './state.js';

const state: AgentState = {
  server: 'http://127.0.0.1:3000',
  access_key: 'zone-key',
  machine_id: 'm-1',
  device_id: 7,
  device_uuid: '00000000-0000-4000-8000-000000000007',
  token: 'pwd_secret',
  checkin_interval_s: 60,
  enrolled_at: '2026-11-21T00:00:00.000Z',
};

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the state file', () => {
  it('is written readable by its owner only (0600), in a 0700 directory', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pw-agent-'));
    const file = path.join(dir, 'nested', 'state.json');
    const oldMask = process.umask(0o000);
    try {
      await writeState(file, state);
    } finally {
      process.umask(oldMask);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(await readState(file)).toEqual(state);
  });

  it('keeps 0600 when rewritten and reads as null when absent', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'pw-agent-'));
    const file = path.join(dir, 'state.json');
    expect(await readState(file)).toBeNull();
    await writeState(file, state);
    await writeState(file, { ...state, token: 'pwd_new' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readState(file))?.token).toBe('pwd_new');
  });

  it('lives under /var/lib for root and under the home directory otherwise', () => {
    expect(defaultStatePath(0, '/root')).toBe('/var/lib/patchwell-agent/state.json');
    expect(defaultStatePath(1000, '/home/ana')).toBe('/home/ana/.patchwell-agent/state.json');
  });
});
