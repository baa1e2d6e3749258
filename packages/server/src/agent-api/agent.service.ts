import { randomBytes } from 'node:crypto';
import type {
  AgentCommand,
  CheckinResult,
  CommandResultBody,
  EnrollBody,
  EnrollResult,
  ParsedInventory,
} from '@patchwell/core/agent/agent-protocol.schema';
import type { AppContext } from '../context';
import { queueEvaluations } from '../engine/results';
import { appError, notFound } from '../domain/errors';
import { logDeviceOutcomes } from '../modules/activity/activity.service';
import { hashAccessKey } from '../modules/zones/access-key';
import { findZoneByAccessKeyHash } from '../modules/zones/zones.store';
import { ensureDefaultGroup } from '../modules/devices/groups.store';
import { applyHostImport } from '../modules/devices/host-imports.service';
import type { CommandEvents } from '../modules/commands/commands.events';
import { recordResult, takeCommands, type CommandRow } from '../modules/commands/commands.service';
import { recordInventory } from '../modules/remediation/cves/cves.service';
import type { AgentRuntime } from './agent-runtime';
import { replaceInventory, upsertEnrolledDevice, type DeviceIdentity } from './agent.store';
import { sha256Hex } from '../domain/sha256';

/**
 * The agent protocol (docs/api/devices-agent-contract.md): enrolment with the zone's access
 * key, then device-token calls. These routes are outside the console's authorization: the
 * token is the device, and every query is bound to that device's id and zone.
 */

type Ctx = Pick<AppContext, 'db' | 'clock' | 'logger'> & { agents: AgentRuntime };

const TOKEN_PREFIX = 'pwd_';
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `pwd_` + 40 random alphanumeric characters (~238 bits). */
export function generateDeviceToken(): string {
  const bytes = randomBytes(40);
  let out = TOKEN_PREFIX;
  // 256 % 62 leaves a small bias; 40 characters of it are still far beyond guessing.
  for (const b of bytes) out += TOKEN_ALPHABET[b % TOKEN_ALPHABET.length];
  return out;
}

export function hashDeviceToken(token: string): string {
  return sha256Hex(token);
}

/** Registers a device in the access key's zone; the same machine gets the same device and a new token. */
export async function enroll(ctx: Ctx, body: EnrollBody): Promise<EnrollResult> {
  const zone = await findZoneByAccessKeyHash(ctx.db, hashAccessKey(body.access_key));
  if (!zone) throw appError('agent.invalid_access_key');
  const now = ctx.clock.now();
  const group = await ensureDefaultGroup(ctx.db, zone.id, now);
  const token = generateDeviceToken();
  const { device: enrolled, previousTokenHash } = await upsertEnrolledDevice(ctx.db, {
    zoneId: zone.id,
    body,
    tokenHash: hashDeviceToken(token),
    group,
    now,
  });
  // A host imported from a CSV (add devices → third-party import) brings its group, tags and notes.
  const device = await applyHostImport(ctx.db, zone.id, enrolled, body.hostname, now);
  // The old token stops working here at once, and on other nodes through NOTIFY (or the cache TTL).
  if (previousTokenHash) await ctx.agents.forget([device.id]);
  await logDeviceOutcomes(ctx, [
    {
      zoneId: zone.id,
      deviceId: device.id,
      action: 'agent.enroll',
      object: { type: 'device', id: device.id },
      details: { re_enrolled: previousTokenHash !== null, agent_version: body.agent_version },
    },
  ]);
  return {
    device_id: device.id,
    device_uuid: device.uuid,
    token,
    checkin_interval_s: device.checkinIntervalS,
  };
}

/**
 * The device a bearer token stands for, from the cache when possible. Invalid → 401,
 * removed → 410, over its rate → 429.
 */
export async function authenticateDevice(ctx: Ctx, token: string | undefined): Promise<DeviceIdentity> {
  if (!token || !token.startsWith(TOKEN_PREFIX)) throw appError('agent.invalid_token');
  const hash = hashDeviceToken(token);
  const device = await ctx.agents.findDevice(hash);
  if (!device) throw appError('agent.invalid_token');
  if (device.removed) throw appError('agent.removed');
  if (!ctx.agents.allow(device.id)) throw appError('agent.rate_limited', { headers: { 'retry-after': '60' } });
  return device;
}

export function toAgentCommand(row: CommandRow): AgentCommand {
  return {
    id: row.id,
    type: row.type,
    args: row.args,
    timeout_s: row.timeoutS,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A check-in: records it (coalesced), hands out queued commands, and with `wait_s` waits
 * for one to be queued. `signal` ends the wait when the agent disconnects (a check-in that
 * does not wait needs none).
 */
export async function checkin(
  ctx: Ctx,
  device: DeviceIdentity,
  body: {
    status: {
      uptime_s?: number | null;
      logged_in_user?: string | null;
      needs_reboot?: boolean;
      ip_addrs?: string[];
      ip_addrs_private?: string[];
    };
    inventory_hash?: string | null;
    wait_s: number;
    busy?: boolean;
  },
  signal?: AbortSignal,
): Promise<CheckinResult> {
  const { status } = body;
  ctx.agents.seen({
    id: device.id,
    organization_id: device.organizationId,
    at: ctx.clock.now().toISOString(),
    interval_s: device.checkinIntervalS,
    needs_reboot: status.needs_reboot ?? null,
    ip_addrs: status.ip_addrs ?? null,
    ip_addrs_private: status.ip_addrs_private ?? null,
    uptime_s: status.uptime_s ?? null,
    logged_in_user: status.logged_in_user ?? null,
  });
  // A busy agent's heartbeat takes nothing: it would have to hold commands it cannot run yet.
  if (body.busy) {
    return {
      commands: [],
      send_inventory: false,
      checkin_interval_s: device.checkinIntervalS,
      server_time: ctx.clock.now().toISOString(),
    };
  }
  // Most check-ins find nothing queued: they share one read instead of each taking with a write.
  let commands = (await ctx.agents.hasPendingCommands(device.id)) ? await takeCommands(ctx, device.id) : [];
  if (!commands.length && body.wait_s > 0) {
    // Woken by a queueing (here or, through NOTIFY, on another node), or the wait ends.
    // A command queued between the query above and the wait starting is caught by the
    // query after it: the wake-up only shortens the wait, it never carries the command.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal?.addEventListener('abort', onAbort);
    try {
      const waited = ctx.agents.waitForCommand(device.id, body.wait_s * 1000, stop.signal);
      commands = await takeCommands(ctx, device.id);
      if (!commands.length && (await waited)) {
        commands = await takeCommands(ctx, device.id);
      }
    } finally {
      stop.abort();
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return {
    commands: commands.map(toAgentCommand),
    // A device the server has no inventory of is always asked for one.
    send_inventory: device.inventoryHash === null || (body.inventory_hash ?? null) !== device.inventoryHash,
    checkin_interval_s: device.checkinIntervalS,
    server_time: ctx.clock.now().toISOString(),
  };
}

/**
 * Replaces the device's inventory (nothing is written when its hash is unchanged). A new
 * inventory means the agent scanned and found the machine changed, so, as after a scan the
 * console asked for, the zone's worklet policies evaluate it again. CVEs whose fixing patch
 * the inventory no longer lists are remediated in the CVE view; that runs on every upload,
 * changed or not (one indexed statement, and uploads come only when the agent's hash differs),
 * so a retried upload after a failure still catches up.
 */
export async function putInventory(ctx: Ctx, device: DeviceIdentity, body: ParsedInventory): Promise<void> {
  const now = ctx.clock.now();
  const changed = await replaceInventory(ctx.db, device.id, body, now);
  ctx.agents.tokens.update(device.id, { inventoryHash: body.hash });
  await recordInventory(ctx.db, { deviceId: device.id, at: now });
  if (!changed) return;
  const queued = await queueEvaluations(ctx.db, device.organizationId, device.id, now);
  if (queued > 0) await ctx.agents.wake([device.id]);
}

/**
 * Records a command's result once (the commands module announces it to the policy engine
 * and any other subscriber); another device's command answers 404.
 */
export async function postCommandResult(
  ctx: Ctx & { commandEvents: CommandEvents },
  device: DeviceIdentity,
  commandId: number,
  body: CommandResultBody,
): Promise<void> {
  const outcome = await recordResult(ctx, device.id, commandId, body);
  if (outcome === 'not_found') throw notFound();
}
