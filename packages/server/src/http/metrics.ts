import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics in the app's own registry (so several apps in one test process do
 * not clash): Node's default metrics plus a request counter and duration histogram. The
 * `route` label is the route pattern (`/api/users/:id`), never the raw URL, so label
 * cardinality stays bounded; unmatched requests count as `unmatched`.
 */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // prom-client hashes a labels object on every call; the label sets are few (method ×
  // route × status), so each gets its children once and a response only counts.
  const children = new Map<string, { requests: { inc(): void }; duration: { observe(v: number): void } }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = { requests: requests.labels(labels), duration: duration.labels(labels) };
      children.set(key, child);
    }
    child.requests.inc();
    child.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  app.addHook('onClose', async () => registry.clear());
  return registry;
}
