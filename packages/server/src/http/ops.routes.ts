import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../context';
import { pingDb } from '../db/health.store';

const tags = ['operations'];
const ZHealth = z.object({ status: z.enum(['ok', 'unavailable']) });

/**
 * Probes and metrics for operators and load balancers. `/healthz`: the process answers.
 * `/readyz`: the database answers and we are not shutting down, so a load balancer stops
 * sending traffic before the process goes away.
 */
export async function opsRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  deps: { registry: Registry; isShuttingDown: () => boolean },
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/healthz',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Liveness: the process is up', response: { 200: ZHealth } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Readiness: the database answers and the server is not shutting down',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (request, reply) => {
      if (deps.isShuttingDown()) return reply.code(503).send({ status: 'unavailable' });
      try {
        await pingDb(ctx.db);
        return { status: 'ok' as const };
      } catch (err) {
        request.log.warn({ err }, 'readiness check: database unavailable');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );

  app.get(
    '/metrics',
    { config: { access: 'public' }, schema: { tags, summary: 'Prometheus metrics (text exposition format)' } },
    async (_request, reply) => {
      reply.header('content-type', deps.registry.contentType);
      return deps.registry.metrics();
    },
  );
}
