import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../context';
import { pingDb } from '../db/health.store';
import { AppError } from './errors';

const tags = ['operations'];
const ZHealth = z.object({ status: z.enum(['ok', 'unavailable']) });

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Whether a request may read `/metrics`: it carries `Authorization: Bearer <METRICS_TOKEN>`, or
 * it comes from this machine. The socket's address decides (not `request.ip`), and a request a
 * proxy forwarded never counts as local: behind a reverse proxy on the same machine every
 * request arrives from loopback.
 */
function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    // Compared as hashes, in constant time, so the answer's timing says nothing of the token.
    if (given !== undefined && timingSafeEqual(digest(given), digest(token))) return true;
  }
  const local = LOOPBACK.has(request.socket.remoteAddress ?? '');
  return local && !FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined);
}

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
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Prometheus metrics (text exposition format)',
        description:
          'Only from this machine (loopback, not through a proxy), or with `Authorization: Bearer <METRICS_TOKEN>`; ' +
          '403 otherwise.',
      },
    },
    async (request, reply) => {
      if (!mayReadMetrics(request, ctx.config.metricsToken)) {
        throw new AppError('metrics.forbidden');
      }
      reply.header('content-type', deps.registry.contentType);
      return deps.registry.metrics();
    },
  );
}
