/**
 * The framework's floor under the check-in route (bench/checkin.ts runs it as a child): Fastify
 * with the same zod validator and serializer compilers, the same route path and schemas, and a
 * handler that answers a check-in with nothing queued without doing anything else (no token
 * lookup, no presence, no hooks of ours). What the real route costs above this is ours.
 * Env: PORT. Tells its parent `ready` over IPC once listening.
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCheckinBody, ZCheckinResult } from '@patchwell/core/agent/agent-protocol.schema';

const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
app.setValidatorCompiler(validatorCompiler);
app.setSerializerCompiler(serializerCompiler);
app.post(
  '/api/agent/v1/checkin',
  { schema: { body: ZCheckinBody, response: { 200: ZCheckinResult } } },
  async (request) => ({
    commands: [],
    send_inventory: request.body.inventory_hash === null,
    checkin_interval_s: 60,
    server_time: new Date().toISOString(),
  }),
);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
