import { randomBytes } from 'node:crypto';
import {
  REMOTE_CLOSE_INSTALLING,
  REMOTE_CONSENT_TIMEOUT_S,
  REMOTE_END_INSTALLING,
  REMOTE_IDLE_MINUTES_DEFAULT,
  REMOTE_JOIN_TIMEOUT_S,
  REMOTE_TEXTS,
  type CreateRemoteSessionBody,
  type CreatedRemoteSession,
  type PutRemoteSettingsBody,
  type RemoteConsentBody,
  type RemoteSession,
  type RemoteSettings,
  type RemoteTranscript,
} from '@patchwell/core/remote/remote-sessions.schema';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { appError, notFound, validationError } from '../../domain/errors';
import { SYSTEM_ACTOR, changesOf, logActivity, type ActivityActor } from '../activity/activity.service';
import { queueCommands, type Waker } from '../commands/commands.service';
import { findDevice } from '../devices/device-list.store';
import { findGroups } from '../devices/groups.store';
import { featuresFor } from '../shell/shell.service';
import { secretKey } from '../zones/secret-key';
import { requireZone } from '../zones/zone-access.service';
import { requireFeature } from '../zones/entitlements.service';
import type { RelayEnd, RelayHub, RelayOutcome } from './remote-relay';
import { TUNNEL_CLOSE } from './remote-relay';
import {
  endOnNode,
  endPurpose,
  internalTunnelPath,
  isNodeUrl,
  signRelayRequest,
  tunnelPurpose,
  verifyRelayRequest,
} from './remote-forward';
import {
  answerConsent,
  claimAgentEnd,
  consumeBrowserToken,
  expireUnjoined,
  findLiveSession,
  findSession,
  findSessionById,
  findSettings,
  finishSession,
  insertSession,
  LIVE_STATES,
  lockDeviceSessions,
  markConnected,
  setSessionCommand,
  upsertSettings,
  type RemoteSessionRow,
} from './remote-sessions.store';
import { sha256Hex } from '../../domain/sha256';

/**
 * Remote control and remote shell sessions (decision 0016): the checks before a session, the
 * single-use browser token, the agent's consent and ends, and what a session leaves in the
 * activity log. The bytes themselves go through {@link RelayHub} on the node that holds them.
 */

export type RemoteCtx = AppContext & {
  agents: Waker;
  relay: RelayHub;
  /**
   * This node's name in `relay_node`: the address other nodes reach it at, or a name of this
   * process only (see `relayNodeName`).
   */
  readonly nodeId: string;
};

/** Seconds the agent's end has to join: the consent prompt, then the join. */
const AGENT_JOIN_S = REMOTE_CONSENT_TIMEOUT_S + REMOTE_JOIN_TIMEOUT_S;
/** The tunnel's path of a session; the browser adds `?token=…`. */
export const tunnelPath = (id: number) => `/api/remote-sessions/${id}/tunnel`;
export const agentTunnelPath = (id: number) => `/api/agent/v1/remote-sessions/${id}/tunnel`;

export const hashToken = (token: string) => sha256Hex(token);

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toSession(row: RemoteSessionRow): RemoteSession {
  return {
    id: row.id,
    device_id: row.deviceId,
    kind: row.kind,
    state: row.state,
    consent: row.consent,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    connected_at: iso(row.connectedAt),
    ended_at: iso(row.endedAt),
    end_reason: row.endReason,
    bytes_to_device: row.bytesToDevice,
    bytes_from_device: row.bytesFromDevice,
  };
}

const deviceObject = (row: { deviceId: number }, name?: string) => ({ type: 'device', id: row.deviceId, name });

async function settingsOf(ctx: AppContext, zoneId: number): Promise<RemoteSettings> {
  const row = await findSettings(ctx.db, zoneId);
  return {
    shell_enabled: row?.shellEnabled ?? false,
    unattended: row?.unattended ?? false,
    unattended_group_ids: row?.unattendedGroupIds ?? [],
    idle_timeout_minutes: row?.idleTimeoutMinutes ?? REMOTE_IDLE_MINUTES_DEFAULT,
  };
}

/**
 * `POST /api/servers/{id}/remote-sessions`: Endpoint.control in the zone, the remote-control
 * flag (404 without it, as the page), the Complete plan, the zone's remote shell for a shell,
 * the device online and past its first inventory, no other live session; then the agent is
 * told at once (a `remote_session` command wakes its check-in).
 */
export async function createRemoteSession(
  ctx: RemoteCtx,
  authz: Authz,
  o: number | undefined,
  deviceId: number,
  body: CreateRemoteSessionBody,
): Promise<CreatedRemoteSession> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  if (!authz.may({ id: zone.id, accountId: zone.accountId }, 'Endpoint', 'control')) {
    throw appError('remote.unauthorized');
  }
  const now = ctx.clock.now();
  const device = await findDevice(ctx.db, zone.id, deviceId, now);
  if (!device) throw notFound();
  const features = await featuresFor(ctx, zone.accountId, zone.id);
  if (!features.remote_control) throw notFound();
  requireFeature(ctx, zone, 'remote_control');
  const settings = await settingsOf(ctx, zone.id);
  if (body.kind === 'shell' && !settings.shell_enabled) throw appError('remote.shell_disabled');
  if (!device.isOnline) throw appError('remote.offline');
  if (!device.lastInventoryAt) throw appError('remote.initializing');

  // Unattended for the whole zone, or for the device's group.
  const unattended =
    settings.unattended || (device.groupId !== null && settings.unattended_group_ids.includes(device.groupId));
  const token = randomBytes(32).toString('base64url');
  const session = await ctx.db.transaction(async (tx) => {
    await lockDeviceSessions(tx, device.id);
    if (await findLiveSession(tx, device.id, new Date(now.getTime() - AGENT_JOIN_S * 1000))) {
      throw appError('remote.busy');
    }
    return insertSession(tx, {
      organizationId: zone.id,
      deviceId: device.id,
      kind: body.kind,
      state: unattended ? 'open' : 'pending',
      consent: unattended ? 'unattended' : null,
      createdBy: authz.userId,
      tokenHash: hashToken(token),
      joinBy: new Date(now.getTime() + REMOTE_JOIN_TIMEOUT_S * 1000),
      createdAt: now,
    });
  });
  const [command] = await queueCommands(ctx, {
    zoneId: zone.id,
    deviceIds: [device.id],
    type: 'remote_session',
    args: { remote: { session_id: session.id, kind: session.kind, ask_consent: !unattended } },
    createdBy: authz.userId,
  });
  await setSessionCommand(ctx.db, session.id, command!.id);
  await logActivity(
    ctx,
    authz,
    zone.id,
    'remote_session.started',
    deviceObject(session, device.customName ?? device.hostname),
    {
      session_id: session.id,
      kind: session.kind,
      consent: session.consent,
    },
  );
  return { ...toSession(session), token, tunnel_path: tunnelPath(session.id) };
}

/** The zone (Endpoint.control in it) and its session `id`, else 404. */
async function zoneSession(ctx: AppContext, authz: Authz, o: number | undefined, id: number) {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'control');
  const row = await findSession(ctx.db, zone.id, id);
  if (!row) throw notFound();
  return { zone, row };
}

/** `GET /api/remote-sessions/{id}` (Endpoint.control). */
export async function getRemoteSession(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<RemoteSession> {
  const { row } = await zoneSession(ctx, authz, o, id);
  return toSession(row);
}

/** `GET /api/remote-sessions/{id}/transcript` (Endpoint.control): what a shell session's device printed. */
export async function getRemoteTranscript(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<RemoteTranscript> {
  const { row } = await zoneSession(ctx, authz, o, id);
  return { transcript: row.transcript ?? '', truncated: row.transcriptTruncated };
}

/** `POST /api/remote-sessions/{id}/end` (Endpoint.control): ends a live session (a no-op on an ended one). */
export async function endRemoteSession(
  ctx: RemoteCtx,
  authz: Authz,
  o: number | undefined,
  id: number,
): Promise<RemoteSession> {
  const { zone, row } = await zoneSession(ctx, authz, o, id);
  // Closing the ends (quietly, wherever they are relayed) gives their counters to this
  // request, which records the end.
  const relayed = await endEverywhere(ctx, row, 'ended', TUNNEL_CLOSE.normal, 'ended', true);
  const ended = await finishSession(ctx.db, id, {
    now: ctx.clock.now(),
    reason: 'ended',
    ...(relayed
      ? {
          bytesToDevice: relayed.bytesToDevice,
          bytesFromDevice: relayed.bytesFromDevice,
          transcript: relayed.transcript,
          transcriptTruncated: relayed.transcriptTruncated,
        }
      : {}),
  });
  // An end claimed while this request read its row is relayed where the ended row says (the
  // claim's own check after attaching covers an end attached later still).
  if (ended && !relayed) await endEverywhere(ctx, ended, 'ended', TUNNEL_CLOSE.normal, 'ended', true);
  if (ended) await logActivity(ctx, authz, zone.id, 'remote_session.ended', deviceObject(ended), endDetails(ended));
  return toSession((await findSession(ctx.db, zone.id, id))!);
}

const endDetails = (row: RemoteSessionRow) => ({
  session_id: row.id,
  kind: row.kind,
  reason: row.endReason,
  consent: row.consent,
  bytes_to_device: row.bytesToDevice,
  bytes_from_device: row.bytesFromDevice,
  started_at: iso(row.createdAt),
  ended_at: iso(row.endedAt),
});

/** `GET /api/remote-settings` (Endpoint.read): the zone's remote-access settings. */
export async function getRemoteSettings(ctx: AppContext, authz: Authz, o: number | undefined): Promise<RemoteSettings> {
  const zone = await requireZone(ctx, authz, o, 'Endpoint', 'read');
  return settingsOf(ctx, zone.id);
}

/** `PUT /api/remote-settings` (zone administrators: Organization.manage). */
export async function putRemoteSettings(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  body: PutRemoteSettingsBody,
): Promise<RemoteSettings> {
  const zone = await requireZone(ctx, authz, o, 'Organization', 'manage');
  const before = await settingsOf(ctx, zone.id);
  const next = { ...before, ...body };
  if (body.unattended_group_ids) {
    next.unattended_group_ids = [...new Set(body.unattended_group_ids)];
    const groups = new Set((await findGroups(ctx.db, zone.id)).map((g) => g.id));
    const unknown = next.unattended_group_ids.find((id) => !groups.has(id));
    if (unknown !== undefined) {
      throw validationError({ unattended_group_ids: [REMOTE_TEXTS.unknownGroup(unknown)] });
    }
  }
  await upsertSettings(
    ctx.db,
    zone.id,
    {
      shellEnabled: next.shell_enabled,
      unattended: next.unattended,
      unattendedGroupIds: next.unattended_group_ids,
      idleTimeoutMinutes: next.idle_timeout_minutes,
    },
    ctx.clock.now(),
  );
  await logActivity(
    ctx,
    authz,
    zone.id,
    'zone.remote_settings',
    { type: 'zone', id: zone.id, name: zone.name },
    {
      changes: changesOf(before, next),
    },
  );
  return next;
}

// ---- The agent's side ----

const agentActor = (deviceId: number, clientAddress: string | null = null): ActivityActor => ({
  userId: null,
  via: 'agent',
  deviceId,
  clientAddress,
});

/**
 * `POST /api/agent/v1/remote-sessions/{id}/consent`: the signed-in user's answer. A refusal
 * ends the session and tells a waiting browser with the spec's text; so does a device that
 * is installing what remote control needs (`installing`), with the spec's installing text.
 */
export async function recordConsent(
  ctx: RemoteCtx,
  device: { id: number; organizationId: number },
  id: number,
  answer: RemoteConsentBody,
  clientAddress: string | null,
): Promise<void> {
  const { granted } = answer;
  const installing = !granted && answer.installing === true;
  const row = await answerConsent(
    ctx.db,
    id,
    device.id,
    granted ? 'granted' : 'refused',
    ctx.clock.now(),
    installing ? REMOTE_END_INSTALLING : 'refused',
  );
  if (!row) throw notFound();
  await logActivity(
    ctx,
    agentActor(device.id, clientAddress),
    row.organizationId,
    'remote_session.consent',
    deviceObject(row),
    {
      session_id: row.id,
      granted,
      ...(installing ? { installing } : {}),
    },
  );
  if (installing) {
    await endEverywhere(ctx, row, REMOTE_END_INSTALLING, REMOTE_CLOSE_INSTALLING, REMOTE_TEXTS.installing);
  } else if (!granted) await endEverywhere(ctx, row, 'refused', TUNNEL_CLOSE.refused, REMOTE_TEXTS.noConsent);
}

/**
 * Ends a session's relay on whichever node holds it: here, or on the relay node through its
 * internal route. What was relayed, or undefined when nobody held it (or its node is gone:
 * then its sockets went with it).
 */
async function endEverywhere(
  ctx: RemoteCtx,
  row: RemoteSessionRow,
  why: string,
  code: number,
  reason: string,
  quiet = false,
): Promise<RelayOutcome | undefined> {
  if (!isNodeUrl(row.relayNode) || row.relayNode === ctx.nodeId) return ctx.relay.end(row.id, why, code, reason, quiet);
  const signature = signRelayRequest(await secretKey(ctx.config), endPurpose(row.id), ctx.clock.now().getTime());
  try {
    return await endOnNode(row.relayNode, row.id, signature, { why, code, reason, quiet });
  } catch (err) {
    ctx.logger.warn({ err, session: row.id }, 'the relay node of a remote session did not answer its end');
    return undefined;
  }
}

/**
 * `POST /internal/remote-sessions/{id}/end` on the relay node, from another node (signed):
 * closes the session's ends here and answers what was relayed; 404 when it is not here.
 */
export async function endHeldSession(
  ctx: RemoteCtx,
  id: number,
  signature: string | string[] | undefined,
  end: { why: string; code: number; reason: string; quiet: boolean },
): Promise<RelayOutcome> {
  if (!verifyRelayRequest(await secretKey(ctx.config), endPurpose(id), signature, ctx.clock.now().getTime())) {
    throw appError('remote.relay_unsigned');
  }
  const outcome = ctx.relay.end(id, end.why, end.code, end.reason, end.quiet);
  if (!outcome) throw notFound();
  return outcome;
}

/**
 * What a tunnel's end may do after its claim: be relayed here, be forwarded to the node that
 * relays its session, or be refused with a close code and text.
 */
export type TunnelClaim =
  | { ok: true; row: RemoteSessionRow; idleMs: number }
  | { ok: 'forward'; url: string; path: string; signature: string }
  | { ok: false; code: number; reason: string };

const unauthorized = { ok: false, code: TUNNEL_CLOSE.unauthorized, reason: REMOTE_TEXTS.unauthorized } as const;
const unavailable = { ok: false, code: TUNNEL_CLOSE.unavailable, reason: REMOTE_TEXTS.unableToConnect } as const;

async function relayHere(ctx: RemoteCtx, row: RemoteSessionRow): Promise<TunnelClaim> {
  const settings = await settingsOf(ctx, row.organizationId);
  return { ok: true, row, idleMs: settings.idle_timeout_minutes * 60_000 };
}

/** An end this node claimed: relayed here when the session's relay is here, else forwarded there. */
async function relayable(ctx: RemoteCtx, row: RemoteSessionRow | undefined, end: RelayEnd): Promise<TunnelClaim> {
  if (!row) return unauthorized;
  if (row.relayNode === ctx.nodeId) return relayHere(ctx, row);
  // A relay node no other node can reach (PATCHWELL_NODE_URL unset there): refuse honestly.
  if (!isNodeUrl(row.relayNode)) return unavailable;
  const signature = signRelayRequest(
    await secretKey(ctx.config),
    tunnelPurpose(row.id, end),
    ctx.clock.now().getTime(),
  );
  return { ok: 'forward', url: row.relayNode, path: internalTunnelPath(row.id, end), signature };
}

/**
 * `GET /internal/remote-sessions/{id}/{end}` on the relay node: an end another node claimed
 * and forwards here (signed). The session must still be live, relayed here, and that end
 * claimed.
 */
export async function claimForwardedEnd(
  ctx: RemoteCtx,
  id: number,
  end: RelayEnd,
  signature: string | string[] | undefined,
): Promise<TunnelClaim> {
  if (!verifyRelayRequest(await secretKey(ctx.config), tunnelPurpose(id, end), signature, ctx.clock.now().getTime())) {
    return unauthorized;
  }
  const row = await findSessionById(ctx.db, id);
  const claimed = end === 'browser' ? row?.browserJoinedAt : row?.agentJoinedAt;
  if (!row || !claimed || !LIVE_STATES.includes(row.state) || row.relayNode !== ctx.nodeId) return unavailable;
  return relayHere(ctx, row);
}

/**
 * The browser's end: consumes the single-use token (bound to this session, before its
 * expiry). A refused session answers the spec's consent text (or its installing text).
 */
export async function claimBrowserEnd(ctx: RemoteCtx, userId: number, id: number, token: string): Promise<TunnelClaim> {
  const now = ctx.clock.now();
  const row = await consumeBrowserToken(ctx.db, id, hashToken(token), ctx.nodeId, now);
  if (!row) {
    const seen = await findSessionById(ctx.db, id);
    if (seen?.state === 'refused' && seen.tokenHash === hashToken(token)) {
      return seen.endReason === REMOTE_END_INSTALLING
        ? { ok: false, code: REMOTE_CLOSE_INSTALLING, reason: REMOTE_TEXTS.installing }
        : { ok: false, code: TUNNEL_CLOSE.refused, reason: REMOTE_TEXTS.noConsent };
    }
    return unauthorized;
  }
  // The token is the session creator's: a cookie of someone else does not carry it.
  if (row.createdBy !== userId) return unauthorized;
  return relayable(ctx, row, 'browser');
}

/** The agent's end: once, for its own device's session, after consent, within the join time. */
export async function claimAgentTunnel(ctx: RemoteCtx, deviceId: number, id: number): Promise<TunnelClaim> {
  const now = ctx.clock.now();
  const row = await claimAgentEnd(ctx.db, id, deviceId, ctx.nodeId, new Date(now.getTime() - AGENT_JOIN_S * 1000), now);
  return relayable(ctx, row, 'agent');
}

/**
 * After an end is attached: a session that ended while its claim was in flight (ended by the
 * console, refused, expired) had nothing here to close then, so its end is closed now, with
 * the text its ending gives. The ending already recorded the session (quiet).
 */
export async function closeIfOver(ctx: RemoteCtx, id: number): Promise<void> {
  const row = await findSessionById(ctx.db, id);
  if (row && LIVE_STATES.includes(row.state)) return;
  const [code, reason] =
    row?.state === 'refused'
      ? row.endReason === REMOTE_END_INSTALLING
        ? [REMOTE_CLOSE_INSTALLING, REMOTE_TEXTS.installing]
        : [TUNNEL_CLOSE.refused, REMOTE_TEXTS.noConsent]
      : row?.state === 'expired'
        ? [TUNNEL_CLOSE.unavailable, REMOTE_TEXTS.unableToConnect]
        : [TUNNEL_CLOSE.normal, 'ended'];
  ctx.relay.end(id, row?.endReason ?? 'ended', code, reason, true);
}

/** The relay joined both ends. */
export async function onRelayConnected(ctx: RemoteCtx, id: number): Promise<void> {
  await markConnected(ctx.db, id, ctx.clock.now());
}

/** The relay ended a session: the counters, the transcript and one event. */
export async function onRelayEnded(ctx: RemoteCtx, outcome: RelayOutcome): Promise<void> {
  const row = await finishSession(ctx.db, outcome.id, {
    now: ctx.clock.now(),
    reason: outcome.reason,
    bytesToDevice: outcome.bytesToDevice,
    bytesFromDevice: outcome.bytesFromDevice,
    transcript: outcome.transcript,
    transcriptTruncated: outcome.transcriptTruncated,
  });
  if (!row) return;
  const actor: ActivityActor = row.createdBy ? { userId: row.createdBy, via: 'session' } : agentActor(row.deviceId);
  await logActivity(ctx, actor, row.organizationId, 'remote_session.ended', deviceObject(row), endDetails(row));
}

/** Sessions nobody joined in time become `expired` (each an event). */
export async function expireRemoteSessions(ctx: RemoteCtx): Promise<number> {
  const now = ctx.clock.now();
  const rows = await expireUnjoined(ctx.db, new Date(now.getTime() - AGENT_JOIN_S * 1000), now);
  for (const row of rows) {
    await endEverywhere(ctx, row, 'expired', TUNNEL_CLOSE.unavailable, REMOTE_TEXTS.unableToConnect);
    await logActivity(
      ctx,
      SYSTEM_ACTOR,
      row.organizationId,
      'remote_session.ended',
      deviceObject(row),
      endDetails(row),
    );
  }
  return rows.length;
}
