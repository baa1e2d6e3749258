/** A fake server API for tests of the executor and the run loop: every call succeeds and is recorded. */
import { vi } from 'vitest';
import type { AgentApi } from '../api/client.js';

export function fakeApi(overrides: Partial<AgentApi> = {}): AgentApi {
  return {
    server: 'http://fake',
    setToken: () => {},
    enroll: vi.fn(),
    checkin: vi.fn(),
    putInventory: vi.fn(async () => {}),
    postResult: vi.fn(async () => {}),
    downloadInstaller: vi.fn(),
    postRemoteConsent: vi.fn(async () => {}),
    openRemoteTunnel: vi.fn(),
    ...overrides,
  };
}
