import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebSocket } from 'ws';
// The `websocket` route option and the (socket, request) handler come with the plugin's types.
import type {} from '@fastify/websocket';
import { ZDeviceIdParams } from '@patchwell/core/devices/devices.schema';
import {
  ZCreateRemoteSessionBody,
  ZCreatedRemoteSession,
  ZInternalEndBody,
  ZInternalTunnelParams,
  ZRelayOutcome,
  ZPutRemoteSettingsBody,
  ZRemoteConsentBody,
  ZRemoteSession,
  ZRemoteSessionIdParams,
  ZRemoteSettings,
  ZRemoteTranscript,
  ZRemoteTunnelQuery,
  REMOTE_TEXTS,
} from '@patchwell/core/remote/remote-sessions.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import { bearerToken } from '../../http/access';
import { requireAuthz } from '../../http/authz';
import { authenticateDevice } from '../../agent-api/agent.service';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import { RELAY_SIGNATURE_HEADER, forwardEnd } from './remote-forward';
import { TUNNEL_CLOSE, type RelayEnd } from './remote-relay';
import {
  claimAgentTunnel,
  claimBrowserEnd,
  claimForwardedEnd,
  closeIfOver,
  createRemoteSession,
  endHeldSession,
  endRemoteSession,
  getRemoteSession,
  getRemoteSettings,
  getRemoteTranscript,
  putRemoteSettings,
  recordConsent,
  type RemoteCtx,
  type TunnelClaim,
} from './remote-sessions.service';

const tags = ['remote-control'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };

/** Largest WebSocket message either end may send (a full-screen RFB update fits). */
export const TUNNEL_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Remote control and shell (decision 0016): the console's session routes, the zone's
 * settings, the agent's consent, and the two WebSocket ends of the tunnel. `@fastify/websocket`
 * must be registered on `root` before this.
 */
export async function remoteSessionsRoutes(root: FastifyInstance, ctx: RemoteCtx, agents: AgentRuntime): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/servers/:id/remote-sessions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Start a remote-control or shell session',
        description:
          'Endpoint.control, the remote-control flag (404 without it) and the Complete plan; a shell needs the ' +
          'zone’s remote shell on. The device must be online and past its first inventory. The agent is told at ' +
          'once; the answer’s single-use `token` opens `tunnel_path` as a WebSocket within 60 s. Recorded in the ' +
          'activity log.',
        security,
        querystring: ZZoneQuery,
        params: ZDeviceIdParams,
        body: ZCreateRemoteSessionBody,
        response: { 201: ZCreatedRemoteSession, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createRemoteSession(ctx, requireAuthz(request), request.query.o, request.params.id, request.body)),
  );

  app.get(
    '/api/remote-sessions/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A remote session',
        description: 'Endpoint.control. Its state, consent answer, times and byte counters.',
        security,
        querystring: ZZoneQuery,
        params: ZRemoteSessionIdParams,
        response: { 200: ZRemoteSession, ...errors },
      },
    },
    async (request) => getRemoteSession(ctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.get(
    '/api/remote-sessions/:id/transcript',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A shell session’s transcript',
        description: 'Endpoint.control. What the device’s shell printed, the first 256 KiB.',
        security,
        querystring: ZZoneQuery,
        params: ZRemoteSessionIdParams,
        response: { 200: ZRemoteTranscript, ...errors },
      },
    },
    async (request) => getRemoteTranscript(ctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.post(
    '/api/remote-sessions/:id/end',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'End a remote session',
        description:
          'Endpoint.control. Closes both ends; an ended session stays as it is. Recorded in the activity log.',
        security,
        querystring: ZZoneQuery,
        params: ZRemoteSessionIdParams,
        response: { 200: ZRemoteSession, ...errors },
      },
    },
    async (request) => endRemoteSession(ctx, requireAuthz(request), request.query.o, request.params.id),
  );

  app.get(
    '/api/remote-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The zone’s remote-access settings',
        description: 'Endpoint.read.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZRemoteSettings, ...errors },
      },
    },
    async (request) => getRemoteSettings(ctx, requireAuthz(request), request.query.o),
  );

  app.put(
    '/api/remote-settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Change the zone’s remote-access settings',
        description:
          'Zone administrators (Organization.manage). The remote shell runs with the agent’s privileges and is off ' +
          'by default. Recorded in the activity log.',
        security,
        querystring: ZZoneQuery,
        body: ZPutRemoteSettingsBody,
        response: { 200: ZRemoteSettings, ...errors },
      },
    },
    async (request) => putRemoteSettings(ctx, requireAuthz(request), request.query.o, request.body),
  );

  app.post(
    '/api/agent/v1/remote-sessions/:id/consent',
    {
      config: { access: 'public' },
      schema: {
        tags: ['agent'],
        summary: 'The signed-in user’s answer to a remote session',
        description: 'The device token’s own pending session only (404 otherwise). A refusal ends the session.',
        security: [{ bearerAuth: [] }],
        params: ZRemoteSessionIdParams,
        body: ZRemoteConsentBody,
        response: { 204: z.void(), 400: ZApiError, 401: ZApiError, 404: ZApiError, 410: ZApiError },
      },
    },
    async (request, reply) => {
      const device = await authenticateDevice({ ...ctx, agents }, bearerToken(request));
      await recordConsent(ctx, device, request.params.id, request.body, request.ip);
      return reply.code(204).send();
    },
  );

  /**
   * Claims the end, then attaches it to the relay. The socket is paused meanwhile so no byte
   * sent during the claim is lost.
   */
  const join = (socket: WebSocket, end: RelayEnd, claim: () => Promise<TunnelClaim>) => {
    socket.pause();
    // A paused socket would not read the peer's answering close frame: resume before closing.
    const refuse = (code: number, reason: string) => {
      socket.resume();
      socket.close(code, reason);
    };
    claim().then(
      (result) => {
        if (result.ok === false) return refuse(result.code, result.reason);
        if (result.ok === 'forward') {
          // The session is relayed by another node: this end is piped there (decision 0016).
          forwardEnd(
            socket,
            { ...result, maxPayload: TUNNEL_MAX_MESSAGE_BYTES },
            { code: TUNNEL_CLOSE.unavailable, reason: REMOTE_TEXTS.unableToConnect },
            (err) => ctx.logger.warn({ err, end }, 'forwarding a remote tunnel to its relay node failed'),
          );
          return;
        }
        const attached = ctx.relay.attach(
          { id: result.row.id, kind: result.row.kind, idleMs: result.idleMs },
          end,
          socket,
        );
        if (!attached) return refuse(TUNNEL_CLOSE.unauthorized, REMOTE_TEXTS.unauthorized);
        socket.resume();
        // The session may have ended while the claim was in flight, with nothing here to close.
        closeIfOver(ctx, result.row.id).catch((err: unknown) =>
          ctx.logger.warn({ err, end }, 'checking a joined remote session failed'),
        );
      },
      (err: unknown) => {
        ctx.logger.warn({ err, end }, 'remote tunnel claim failed');
        refuse(TUNNEL_CLOSE.unauthorized, REMOTE_TEXTS.unauthorized);
      },
    );
  };

  app.get(
    '/api/remote-sessions/:id/tunnel',
    {
      websocket: true,
      config: { access: 'session' },
      schema: { params: ZRemoteSessionIdParams, querystring: ZRemoteTunnelQuery },
    },
    (socket, request) => {
      const authz = requireAuthz(request);
      // The single-use token bound to this session and its creator is the decision.
      authz.allow('the session’s single-use token, checked on the claim');
      const { id } = request.params as { id: number };
      const { token } = request.query as { token: string };
      join(socket, 'browser', () => claimBrowserEnd(ctx, authz.userId, id, token));
    },
  );

  app.get(
    '/api/agent/v1/remote-sessions/:id/tunnel',
    { websocket: true, config: { access: 'public' }, schema: { params: ZRemoteSessionIdParams } },
    (socket, request) => {
      const { id } = request.params as { id: number };
      join(socket, 'agent', async () => {
        const device = await authenticateDevice({ ...ctx, agents }, bearerToken(request));
        return claimAgentTunnel(ctx, device.id, id);
      });
    },
  );

  // ---- Between server nodes (decision 0016): signed with the servers' shared key ----

  app.get(
    '/internal/remote-sessions/:id/:end',
    { websocket: true, config: { access: 'public' }, schema: { hide: true, params: ZInternalTunnelParams } },
    (socket, request) => {
      const { id, end } = request.params as { id: number; end: RelayEnd };
      const signature = request.headers[RELAY_SIGNATURE_HEADER];
      join(socket, end, () => claimForwardedEnd(ctx, id, end, signature));
    },
  );

  app.post(
    '/internal/remote-sessions/:id/end',
    {
      config: { access: 'public' },
      schema: {
        hide: true,
        params: ZRemoteSessionIdParams,
        body: ZInternalEndBody,
        response: { 200: ZRelayOutcome, 400: ZApiError, 401: ZApiError, 404: ZApiError },
      },
    },
    async (request) => endHeldSession(ctx, request.params.id, request.headers[RELAY_SIGNATURE_HEADER], request.body),
  );
}
