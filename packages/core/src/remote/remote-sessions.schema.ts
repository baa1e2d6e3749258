import { z } from 'zod';
import { TEXTS } from '../texts';
import { REMOTE_IDLE_MINUTES_MAX, REMOTE_IDLE_MINUTES_MIN, REMOTE_UNATTENDED_GROUPS_MAX } from './remote-constants';

export * from './remote-constants';

/**
 * Remote control and the remote shell (issue 14, spec B sections 2, 4, 6, 8 and 9; decision
 * 0016): the console asks for a session, the device's agent opens an outbound WebSocket, the
 * browser opens its own, and the server relays bytes between them.
 */

/** The console's statuses of a remote-control session (spec B section 4), in the spec's order. */
export const REMOTE_CONTROL_STATUSES = [
  'authenticating',
  'awaitingConsent',
  'consentGranted',
  'connecting',
  'connected',
  'connectionFailed',
  'disconnected',
  'disconnecting',
  'error',
  'initializing',
  'installing',
  'tunnelOpening',
  'unauthorized',
  'unavailable',
] as const;
export type RemoteControlStatus = (typeof REMOTE_CONTROL_STATUSES)[number];

/**
 * Texts of remote control: the spec's (spec B section 8) from {@link TEXTS}, and ours where
 * the spec is silent.
 */
export const REMOTE_TEXTS = {
  ...TEXTS.remote,
  /** The remote shell is off until a zone administrator turns it on. */
  shellDisabled: 'The remote shell is turned off for this zone.',
  busy: 'A remote session with this device is already open.',
  unknownGroup: (id: number) => `Group ${id} is not a group of this zone.`,
} as const;

/** What a session carries: the device's screen (VNC) or a terminal. */
export const REMOTE_SESSION_KINDS = ['control', 'shell'] as const;
export const ZRemoteSessionKind = z.enum(REMOTE_SESSION_KINDS);
export type RemoteSessionKind = z.infer<typeof ZRemoteSessionKind>;

/**
 * A session's stored state: `pending` until the agent answers, `refused` when the user said
 * no (or nobody was there), `open` once the agent's consent or the zone's unattended access
 * let it through, `ended` when either end closed, the idle timeout struck or someone ended it,
 * `expired` when nobody joined in time.
 */
export const REMOTE_SESSION_STATES = ['pending', 'open', 'refused', 'ended', 'expired'] as const;
export type RemoteSessionState = (typeof REMOTE_SESSION_STATES)[number];

/** The user's answer, or `unattended` when the zone allows access without asking. */
export const REMOTE_CONSENTS = ['granted', 'refused', 'unattended'] as const;
export type RemoteConsent = (typeof REMOTE_CONSENTS)[number];

/** Seconds to join a session after it is created (the browser's token expires then). */
export const REMOTE_JOIN_TIMEOUT_S = 60;
/** Seconds the agent has to ask for consent and answer. */
export const REMOTE_CONSENT_TIMEOUT_S = 120;
/** Bytes of a shell session's output kept as its transcript; beyond this it is counted only. */
export const REMOTE_TRANSCRIPT_MAX_BYTES = 256 * 1024;

/** `POST /api/servers/{id}/remote-sessions` body. */
export const ZCreateRemoteSessionBody = z.object({
  /** `control` (the screen) or `shell` (a terminal; needs the zone's remote shell on). */
  kind: ZRemoteSessionKind.default('control'),
});
export type CreateRemoteSessionBody = z.infer<typeof ZCreateRemoteSessionBody>;

/** A session as the API shows it. */
export const ZRemoteSession = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  kind: ZRemoteSessionKind,
  state: z.enum(REMOTE_SESSION_STATES),
  /** The user's answer; null until the agent reports it. */
  consent: z.enum(REMOTE_CONSENTS).nullable(),
  /** Who opened it. */
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  /** When both ends were joined. */
  connected_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  /**
   * Why it ended: `browser`, `agent`, `user` (the device's user ended it), `idle`, `ended`
   * (someone ended it), `refused`, `installing` (the device was installing what it needs), `expired`.
   */
  end_reason: z.string().nullable(),
  /** Bytes relayed from the browser to the device, and back. */
  bytes_to_device: z.number().int(),
  bytes_from_device: z.number().int(),
});
export type RemoteSession = z.infer<typeof ZRemoteSession>;

/** The answer of a create: the session and the browser's single-use token for its tunnel. */
export const ZCreatedRemoteSession = ZRemoteSession.extend({
  /** Single-use, valid {@link REMOTE_JOIN_TIMEOUT_S} seconds: `GET {tunnel_path}?token=…` as a WebSocket. */
  token: z.string(),
  tunnel_path: z.string(),
});
export type CreatedRemoteSession = z.infer<typeof ZCreatedRemoteSession>;

/** A shell session's transcript (what the device's shell printed, bounded). */
export const ZRemoteTranscript = z.object({
  transcript: z.string(),
  /** True when the output went beyond {@link REMOTE_TRANSCRIPT_MAX_BYTES}. */
  truncated: z.boolean(),
});
export type RemoteTranscript = z.infer<typeof ZRemoteTranscript>;

/** A zone's remote-access settings (zone administrators change them). */
export const ZRemoteSettings = z.object({
  /** Whether shell sessions may be opened (they run with the agent's privileges). Off by default. */
  shell_enabled: z.boolean(),
  /** Whether sessions start without asking the signed-in user, on every device. Off by default. */
  unattended: z.boolean(),
  /**
   * Device groups whose devices start sessions without asking (kiosks, servers nobody sits
   * at), while the others still ask. Groups of this zone.
   */
  unattended_group_ids: z.array(z.number().int().positive()).max(REMOTE_UNATTENDED_GROUPS_MAX),
  /** Minutes with no byte either way after which a session ends. */
  idle_timeout_minutes: z.number().int().min(REMOTE_IDLE_MINUTES_MIN).max(REMOTE_IDLE_MINUTES_MAX),
});
export type RemoteSettings = z.infer<typeof ZRemoteSettings>;

export const ZPutRemoteSettingsBody = ZRemoteSettings.partial();
export type PutRemoteSettingsBody = z.infer<typeof ZPutRemoteSettingsBody>;

/** What a `remote_session` command tells the agent. */
export const ZRemoteSessionCommand = z.object({
  session_id: z.number().int(),
  kind: ZRemoteSessionKind,
  /** Ask the signed-in user first (false when the zone allows unattended access). */
  ask_consent: z.boolean(),
});
export type RemoteSessionCommand = z.infer<typeof ZRemoteSessionCommand>;

/** `POST /api/agent/v1/remote-sessions/{id}/consent`: the user's answer. */
export const ZRemoteConsentBody = z.object({
  granted: z.boolean(),
  /**
   * With `granted: false`: nobody was asked, because the device is installing what remote
   * control needs (the console says so; the next session finds it installed).
   */
  installing: z.boolean().optional(),
});
export type RemoteConsentBody = z.infer<typeof ZRemoteConsentBody>;

export const ZRemoteSessionIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const ZRemoteTunnelQuery = z.object({ token: z.string().min(1).max(200) });

// ---- Between server nodes (decision 0016): not part of the public API ----

/** The two ends of a session's tunnel. */
export const ZRemoteTunnelEnd = z.enum(['browser', 'agent']);

/** `GET /internal/remote-sessions/{id}/{end}`: a forwarded end. */
export const ZInternalTunnelParams = ZRemoteSessionIdParams.extend({ end: ZRemoteTunnelEnd });

/** `POST /internal/remote-sessions/{id}/end`: how the relay node closes the session's ends. */
export const ZInternalEndBody = z.object({
  why: z.string().min(1).max(40),
  code: z.number().int().min(1000).max(4999),
  reason: z.string().max(120),
  /** The caller records the end itself (the relay node only closes and counts). */
  quiet: z.boolean(),
});
export type InternalEndBody = z.infer<typeof ZInternalEndBody>;

/** What the relay node relayed before it closed the session's ends. */
export const ZRelayOutcome = z.object({
  id: z.number().int(),
  reason: z.string(),
  bytesToDevice: z.number().int(),
  bytesFromDevice: z.number().int(),
  connected: z.boolean(),
  transcript: z.string().nullable(),
  transcriptTruncated: z.boolean(),
});
