/**
 * A zone's fleet for benches of the console's pages: `count` of the agent simulator's machines
 * enrolled through the real agent API with the zone's access key, each sending its inventory
 * and one check-in, as an agent does in its first minute (the devices list, the dashboard's
 * figures and the software pages then have data).
 */
import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { SEED, enrollBodyOf, inventoryOf, seededHash, statusOf } from './devices-seed';
import { pool } from './proc';
import type { benchSession } from './server';

type Session = Awaited<ReturnType<typeof benchSession>>;
type Agent = (
  path: string,
  method: string,
  body: unknown,
  token?: string,
) => Promise<Record<string, unknown> | undefined>;

/** The zone's fleet enrolled: each machine's device id and agent token, and a caller of the agent API. */
export async function enrolFleet(url: string, session: Session, count: number) {
  const keyRes = await fetch(`${url}/api/orgs/${session.zoneId}/access-key?o=${session.zoneId}`, {
    headers: { cookie: session.cookie },
  });
  if (keyRes.status !== 200) throw new Error(`access key: ${keyRes.status} ${await keyRes.text()}`);
  const accessKey = ((await keyRes.json()) as { access_key: string }).access_key;
  const agent: Agent = async (path, method, body, token) => {
    const res = await fetch(`${url}/api/agent/v1/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  const machines: { deviceId: number; token: string; status: ReturnType<typeof statusOf> }[] = [];
  await pool(count, 8, async (i) => {
    const m = generateMachine(SEED, i);
    const enrolled = (await agent('enroll', 'POST', enrollBodyOf(accessKey, m))) as {
      device_id: number;
      token: string;
    };
    await agent('inventory', 'PUT', inventoryOf(m), enrolled.token);
    const status = statusOf(m);
    await agent('checkin', 'POST', { status, inventory_hash: seededHash(m), wait_s: 0 }, enrolled.token);
    machines[i] = { deviceId: enrolled.device_id, token: enrolled.token, status };
  });
  return { machines, agent };
}

/**
 * Walks the quick start guide's remaining steps as an administrator and an agent would, so
 * that /dashboard shows the fleet rather than sending the account to /onboarding: one
 * device installs its updates (queued in the console, received at a check-in, reported a
 * success), and the administrator opens the prepatch report. The guide then marks the
 * account as having completed it.
 */
export async function completeQuickStart(session: Session, fleet: Awaited<ReturnType<typeof enrolFleet>>) {
  const first = fleet.machines[0];
  if (!first) throw new Error('the quick start guide needs a device');
  await session.call('POST', `/api/servers/${first.deviceId}/queues`, { command_type_name: 'InstallAllUpdates' });
  const handed = (await fleet.agent('checkin', 'POST', { status: first.status, wait_s: 0 }, first.token)) as {
    commands: { id: number }[];
  };
  const command = handed.commands[0];
  if (!command) throw new Error('the queued install was not handed to the device');
  await fleet.agent(`commands/${command.id}/result`, 'POST', { status: 'success', exit_code: 0 }, first.token);
  await session.call('GET', '/api/reports/prepatch');
  const guide = await session.call('GET', '/api/onboarding');
  if (guide.completed !== true) throw new Error(`the quick start guide is not completed: ${JSON.stringify(guide)}`);
}
