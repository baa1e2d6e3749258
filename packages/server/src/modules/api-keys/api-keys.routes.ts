import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZApiKeyList, ZCreateApiKeyBody, ZCreatedApiKey } from '@patchwell/core/users/api-keys.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service';
import { ZIdParams } from '../../http/params';

const tags = ['api keys'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];

/** Settings › Keys: the caller's personal API keys. */
export async function apiKeysRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/users/self/api_keys',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The caller’s API keys',
        description: 'Every key the caller made and has not revoked, newest first; the secrets are never shown again.',
        security,
        querystring: ZZoneQuery,
        response: { 200: ZApiKeyList, 401: ZApiError },
      },
    },
    async (request) => listApiKeys(ctx, requireAuthz(request)),
  );

  app.post(
    '/api/users/self/api_keys',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create an API key (shown once)',
        description:
          'The key (`pw_` and 40 characters) acts with the caller’s current permissions in `zone_id` (default: ' +
          'zone `o`), sent as `Authorization: Bearer <key>`. `zone_id: null` (every zone of the account) is ' +
          'for global administrators (403 otherwise); a zone the caller may not enter answers 404. Needs a ' +
          'session: a call made with an API key answers 403 (a key cannot create keys).',
        security,
        querystring: ZZoneQuery,
        body: ZCreateApiKeyBody,
        response: { 201: ZCreatedApiKey, 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError },
      },
    },
    async (request, reply) => {
      const created = await createApiKey(ctx, requireAuthz(request), request.query.o, request.body);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/api/users/self/api_keys/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Revoke an API key',
        description: 'The key is refused from the next request on. 404 for a key that is not the caller’s.',
        security,
        params: ZIdParams,
        response: { 204: z.void(), 401: ZApiError, 404: ZApiError },
      },
    },
    async (request, reply) => {
      await revokeApiKey(ctx, requireAuthz(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
