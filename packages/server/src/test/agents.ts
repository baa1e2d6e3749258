import { randomBytes } from 'node:crypto';
import type { EnrollBody, InventoryBody } from '@patchwell/core/agent/agent-protocol.schema';
import type { TestApp } from './app';
import { call, clientFor, cookieFor, type Answer } from './authz-helpers';
import { buildAccountWithUser } from './factories';

/**
 * Helpers for tests of devices: a zone with its administrator and access key, and devices
 * enrolled the way the agent enrols them (through the agent API, with the real key).
 */

export async function buildZoneWithKey(t: TestApp) {
  const { account, zone, user } = await buildAccountWithUser(t.db);
  const cookie = await cookieFor(t, user);
  const admin = clientFor(t, { cookie });
  const key = await admin.get(`/api/orgs/${zone.id}/access-key?o=${zone.id}`);
  if (key.status !== 200) throw new Error(`access key: ${key.status} ${key.text}`);
  return { account, zone, user, cookie, admin, accessKey: key.body.access_key as string };
}

export type EnrolledDevice = { id: number; uuid: string; token: string; machineId: string };

export async function enrollDevice(
  t: TestApp,
  accessKey: string,
  overrides: Partial<EnrollBody> = {},
): Promise<EnrolledDevice> {
  const machineId = overrides.machine_id ?? `machine-${randomBytes(6).toString('hex')}`;
  const res = await call(
    t,
    {},
    'POST',
    '/api/agent/v1/enroll',
    enrollBody(accessKey, { ...overrides, machine_id: machineId }),
  );
  if (res.status !== 201) throw new Error(`enroll: ${res.status} ${res.text}`);
  return { id: res.body.device_id, uuid: res.body.device_uuid, token: res.body.token, machineId };
}

export function enrollBody(accessKey: string, overrides: Partial<EnrollBody> = {}): EnrollBody {
  return {
    access_key: accessKey,
    machine_id: `machine-${randomBytes(6).toString('hex')}`,
    hostname: 'host-1',
    os_family: 'linux',
    os_name: 'Debian GNU/Linux',
    os_version: '12',
    arch: 'x64',
    agent_version: '0.1.0',
    ...overrides,
  };
}

/** An agent call with the device's token. */
export function agentCall(t: TestApp, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(t, { bearer: token }, method, `/api/agent/v1${path}`, body);
}

export function checkinAs(t: TestApp, token: string, body: Record<string, unknown> = {}): Promise<Answer> {
  return agentCall(t, token, 'POST', '/checkin', { status: {}, inventory_hash: null, wait_s: 0, ...body });
}

export function inventoryBody(overrides: Partial<InventoryBody> & { hostname?: string } = {}): InventoryBody {
  const { hostname = 'host-1', ...rest } = overrides;
  return {
    hash: `hash-${randomBytes(4).toString('hex')}`,
    system: {
      hostname,
      fqdn: `${hostname}.example.test`,
      os_family: 'linux',
      os_name: 'Debian GNU/Linux',
      os_version: '12',
      arch: 'x64',
      kernel: '6.1.0',
      cpu: 'Test CPU',
      cpu_cores: 4,
      ram_bytes: 8_000_000_000,
      disks: [{ name: 'sda', size_bytes: 100_000_000_000, type: 'ssd' }],
      nics: [{ name: 'eth0', mac: '00:11:22:33:44:55', ips: ['10.0.0.5'] }],
      model: 'VM',
      serial: 'SER-1',
      vendor: 'QEMU',
      timezone: 'UTC',
      agent_version: '0.1.0',
      uptime_s: 100,
      logged_in_user: null,
    },
    software: [
      { name: 'openssl', version: '3.0.1', source: 'dpkg', arch: 'amd64' },
      { name: 'bash', version: '5.2', source: 'dpkg', arch: 'amd64' },
    ],
    patches: [
      {
        name: 'openssl',
        current_version: '3.0.1',
        version: '3.0.2',
        severity: 'critical',
        cves: ['CVE-2026-0001'],
        kb: null,
        source: 'apt',
        reboot_required: false,
        published_at: '2026-02-01T00:00:00Z',
      },
    ],
    ...rest,
  };
}

/** Writes the check-ins the app's agent runtime coalesced so far (instead of waiting for its timer). */
export const flushLastSeen = (t: TestApp): Promise<void> => t.app.agents.flushSeen();
