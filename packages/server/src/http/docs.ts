import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import { SERVER_VERSION } from '../version';

/**
 * The OpenAPI 3 document at /api/docs/json, generated from the routes' zod schemas, and
 * the interactive reference at /api/docs. Must be registered before the routes.
 * Swagger UI 5 loads only its own files (no inline script), so the app's CSP fits it;
 * the validator badge, which would call validator.swagger.io, is turned off.
 */
export async function registerDocs(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Patchwell API',
        version: SERVER_VERSION,
        description:
          'The API behind the Patchwell console. Sign in with `GET /api/users/self` and Basic credentials; ' +
          'the session cookie it sets authenticates the other calls. Errors are `{ code, message, errors? }`.',
      },
      servers: config.publicUrl ? [{ url: config.publicUrl }] : [],
      tags: [
        { name: 'auth', description: 'Sign-in, sessions, profile' },
        { name: 'mfa', description: 'Multi-factor authentication and sign-in requirements' },
        { name: 'accounts', description: 'Sign-up' },
        { name: 'shell', description: 'Banners and console configuration' },
        { name: 'operations', description: 'Health, readiness and metrics' },
      ],
      components: {
        securitySchemes: {
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: 'pw_session',
            description: '`__Host-pw_session` over https.',
          },
          basicAuth: { type: 'http', scheme: 'basic', description: 'Only to sign in through `GET /api/users/self`.' },
          mfaChallengeCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'pw_mfa',
            description: 'A sign-in waiting for its second factor (5 minutes); `__Host-pw_mfa` over https.',
          },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal API key (`pw_…`, Settings › Keys): its owner’s permissions in the key’s zone.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null, deepLinking: true },
  });
}
