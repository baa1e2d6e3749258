import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

/**
 * Security headers on every response (@fastify/helmet). The CSP allows only our own
 * scripts; styles may be inline because Mantine injects `<style>` tags. HSTS and
 * `upgrade-insecure-requests` only when the public URL is https: over plain HTTP they
 * would make browsers rewrite the console's asset URLs to https and break it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'isHttps'>): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'script-src': ["'self'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(config.isHttps ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    hsts: config.isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'same-origin' },
    // Same rule as frame-ancestors 'none', for browsers that predate CSP.
    frameguard: { action: 'deny' },
    // The console embeds nothing cross-origin; keep the default isolation headers.
    crossOriginEmbedderPolicy: false,
  });
}
