/**
 * A zone's fleet for benches of the console's pages: `count` of the agent simulator's machines
 * enrolled through the real agent API with the zone's access key, each sending its inventory
 * and one check-in, as an agent does in its first minute (the devices list, the dashboard's
 * figures and the software pages then have data).
 */
import { generateMachine } from '@patchwell/agent/simulate/inventory';
import { SEED, enrollBodyOf, inventoryOf, seededHash, statusOf } from './devices-seed';
import { pool } from './proc';

export async function enrolFleet(url: string, session: { zoneId: number; cookie: string }, count: number) {
  const keyRes = await fetch(`${url}/api/orgs/${session.zoneId}/access-key?o=${session.zoneId}`, {
    headers: { cookie: session.cookie },
  });
  if (keyRes.status !== 200) throw new Error(`access key: ${keyRes.status} ${await keyRes.text()}`);
  const accessKey = ((await keyRes.json()) as { access_key: string }).access_key;
  const agent = async (path: string, method: string, body: unknown, token?: string) => {
    const res = await fetch(`${url}/api/agent/v1/${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  await pool(count, 8, async (i) => {
    const m = generateMachine(SEED, i);
    const { token } = (await agent('enroll', 'POST', enrollBodyOf(accessKey, m))) as { token: string };
    await agent('inventory', 'PUT', inventoryOf(m), token);
    await agent('checkin', 'POST', { status: statusOf(m), inventory_hash: seededHash(m), wait_s: 0 }, token);
  });
}
