import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: a route for programs, not browsers (the agents' API), sends no browser security headers. */
    securityHeaders?: boolean;
  }
}

/**
 * Security headers (helmet's). The CSP allows only our own scripts; styles may be inline
 * because Mantine injects `<style>` tags. HSTS and `upgrade-insecure-requests` only when the
 * public URL is https: over plain HTTP they would make browsers rewrite the console's asset
 * URLs to https and break it.
 */
function helmetOptions(config: Pick<Config, 'isHttps'>): HelmetOptions {
  return {
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
  };
}

/**
 * The headers helmet sets for these options, computed once: they depend on nothing in the
 * request, and helmet's Fastify plugin built its middleware again for every response (its
 * CSP parsing was 4 % of a device list request's CPU).
 */
function securityHeaders(config: Pick<Config, 'isHttps'>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(helmetOptions(config))({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // helmet's middlewares are synchronous; a version that is not would leave headers out.
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/** Security headers on every response, except routes configured with `securityHeaders: false`. */
export function registerSecurityHeaders(app: FastifyInstance, config: Pick<Config, 'isHttps'>): void {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.securityHeaders !== false) reply.headers(headers);
    done();
  });
}
