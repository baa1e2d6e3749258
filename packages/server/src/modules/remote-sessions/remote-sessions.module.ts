import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { startPeriodic } from '../../periodic';
import { relayNodeName } from './remote-forward';
import { createRelayHub, type RelayHub } from './remote-relay';
import { TUNNEL_MAX_MESSAGE_BYTES, remoteSessionsRoutes } from './remote-sessions.routes';
import { expireRemoteSessions, onRelayConnected, onRelayEnded, type RemoteCtx } from './remote-sessions.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's remote-session relay (tests wait on its size). */
    remoteRelay: RelayHub;
  }
}

/** How often sessions nobody joined are marked expired. */
const EXPIRE_EVERY_MS = 30_000;

/**
 * Remote control and shell (decision 0016): the WebSocket plugin, this node's relay, the
 * routes, and the expiry of sessions nobody joined. The relay's ends are closed before the
 * server closes, so each session's row gets its counters.
 */
export async function remoteSessionsModule(
  app: FastifyInstance,
  base: AppContext,
  agents: AgentRuntime,
): Promise<void> {
  await app.register(websocket, { options: { maxPayload: TUNNEL_MAX_MESSAGE_BYTES } });
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const p = work.catch((err: unknown) => base.logger.error({ err }, 'remote session bookkeeping failed'));
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  // The relay's hooks write through the context that holds the relay: bound after it exists.
  const relay: RelayHub = createRelayHub({
    onConnected: (id) => track(onRelayConnected(ctx, id)),
    onEnded: (outcome) => track(onRelayEnded(ctx, outcome)),
  });
  const processName = `local:${randomUUID()}`;
  const ctx: RemoteCtx = {
    ...base,
    agents,
    relay,
    // Read once the server listens (its address is known then).
    get nodeId() {
      return relayNodeName(base.config.nodeUrl, app.server.address(), processName);
    },
  };
  app.decorate('remoteRelay', relay);
  await remoteSessionsRoutes(app, ctx, agents);
  const expiry = startPeriodic(
    base.logger,
    EXPIRE_EVERY_MS,
    async () => void (await expireRemoteSessions(ctx)),
    'remote session expiry failed',
  );
  app.addHook('preClose', async () => {
    ctx.relay.closeAll();
    await Promise.all(pending);
  });
  app.addHook('onClose', async () => expiry.stop());
}
