import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  INVENTORY_BODY_MAX_BYTES,
  ZCheckinBody,
  ZCheckinResult,
  ZCommandIdParams,
  ZCommandResultBody,
  ZEnrollBody,
  ZEnrollResult,
  ZInventoryBody,
} from '@patchwell/core/agent/agent-protocol.schema';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../context';
import type { CommandEvents } from '../modules/commands/commands.events';
import { bearerToken } from '../http/access';
import { compiledSerializer } from '../http/compiled-serializer';
import type { AgentRuntime } from './agent-runtime';
import { authenticateDevice, checkin, enroll, postCommandResult, putInventory } from './agent.service';

const tags = ['agent'];
const security: Record<string, string[]>[] = [{ bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 410: ZApiError, 429: ZApiError };
/**
 * Agents are programs, not browsers: the browser security headers (CSP, frame and referrer
 * rules) mean nothing to them, and building them cost a check-in more than its own work.
 */
const machineRoute = { access: 'public', securityHeaders: false } as const;
/** The check-in's answer is the server's most frequent: serialized without zod's pass (http/compiled-serializer.ts). */
const hotAnswer = { serializerCompiler: compiledSerializer };

/**
 * The agents' API under /api/agent/v1. Access is `public` for the console's rules (no
 * session, no zone role): each route authenticates the device token itself, and every
 * query is bound to that device.
 */
export async function agentRoutes(
  root: FastifyInstance,
  ctx: AppContext & { commandEvents: CommandEvents },
  agents: AgentRuntime,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const actx = { ...ctx, agents };

  app.post(
    '/api/agent/v1/enroll',
    {
      config: machineRoute,
      schema: {
        tags,
        summary: 'Enrol a device',
        description:
          'The zone is the access key’s (401 `agent.invalid_access_key` otherwise). The same `machine_id` in the ' +
          'same zone gets the same device and a new token; the old token stops working.',
        body: ZEnrollBody,
        response: { 201: ZEnrollResult, 400: ZApiError, 401: ZApiError },
      },
    },
    async (request, reply) => reply.code(201).send(await enroll(actx, request.body)),
  );

  app.post(
    '/api/agent/v1/checkin',
    {
      config: machineRoute,
      ...hotAnswer,
      schema: {
        tags,
        summary: 'Check in (long-poll for commands)',
        description:
          'Records the check-in and hands out queued commands. With `wait_s` and nothing queued, answers as soon ' +
          'as a command is queued or after `wait_s`. 401 `agent.invalid_token` (re-enrol), 410 `agent.removed` (stop).',
        security,
        body: ZCheckinBody,
        response: { 200: ZCheckinResult, ...errors },
      },
    },
    async (request, reply) => {
      const device = await authenticateDevice(actx, bearerToken(request));
      const { body } = request;
      // Most check-ins answer at once (no wait, or busy): only a long-poll watches its connection.
      if (body.wait_s === 0 || body.busy) return checkin(actx, device, body);
      // The response closing before we answered means the agent went away: stop waiting.
      const disconnected = new AbortController();
      const onClose = () => disconnected.abort();
      reply.raw.once('close', onClose);
      try {
        const result = await checkin(actx, device, body, disconnected.signal);
        // A long-poll ended by the server closing: the agent must reconnect (to another node),
        // and its idle keep-alive connection would otherwise hold the close up.
        if (agents.stopping) reply.header('connection', 'close');
        return result;
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );

  app.put(
    '/api/agent/v1/inventory',
    {
      config: machineRoute,
      bodyLimit: INVENTORY_BODY_MAX_BYTES,
      schema: {
        tags,
        summary: 'Send the inventory',
        description: 'Replaces the device’s system details, software and patches; an unchanged hash writes nothing.',
        security,
        body: ZInventoryBody,
        response: { 204: z.void(), ...errors, 413: ZApiError },
      },
    },
    async (request, reply) => {
      const device = await authenticateDevice(actx, bearerToken(request));
      await putInventory(actx, device, request.body);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/agent/v1/commands/:commandId/result',
    {
      config: machineRoute,
      schema: {
        tags,
        summary: 'Report a command’s result',
        description: 'Idempotent: a result for a finished command changes nothing. Another device’s command → 404.',
        security,
        params: ZCommandIdParams,
        body: ZCommandResultBody,
        response: { 204: z.void(), ...errors, 404: ZApiError },
      },
    },
    async (request, reply) => {
      const device = await authenticateDevice(actx, bearerToken(request));
      await postCommandResult(actx, device, request.params.commandId, request.body);
      return reply.code(204).send();
    },
  );
}
