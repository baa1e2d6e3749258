import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZConnection, ZConnectionBody, ZConnectionList } from '@patchwell/core/sso/connections.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { linkOrigin } from '../../http/link-origin';
import { ZAccountParams } from '../../http/params';
import {
  connectionSpMetadata,
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  replaceConnection,
} from './connections.service';

const tags = ['sso'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const ZConnectionParams = ZAccountParams.extend({ connectionId: z.uuid() });
const accountOnly =
  'Global administrators of the account only (Saml.read to see, Saml.manage to change): another account or its connection answers 404, other users of the account 403.';
const spNote =
  '`sp` holds the entity ID, ACS URL and metadata URL to give the identity provider (null when the server’s public address, PATCHWELL_PUBLIC_URL, is unknown).';
const bodyNote =
  'The IdP is described by `metadata_xml` (an EntityDescriptor: entityID, the HTTP-Redirect SingleSignOnService, signing certificates; no DTD, 256 KB at most) ' +
  'or by `certificate` (PEM) + `sso_url` (https) + `entity_id`. `domains`: at least one; a domain on another connection of the account moves here, ' +
  'one another account verified is refused. `zone_rbac` needs `default_role_id` or `zone_roles` (zones of this account).';

/** SAML connections of an account (Global setup › Authentication) and each one's public SP metadata. */
export async function samlConnectionsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/connections',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The account’s SAML connections',
        description: `${spNote} ${accountOnly}`,
        security,
        params: ZAccountParams,
        response: { 200: ZConnectionList, ...errors },
      },
    },
    async (request) =>
      listConnections(ctx, requireAuthz(request), request.params.accountId, linkOrigin(request, ctx.config)),
  );

  app.post(
    '/api/accounts/:accountId/connections',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Create a SAML connection',
        description: `${bodyNote} ${accountOnly}`,
        security,
        params: ZAccountParams,
        body: ZConnectionBody,
        response: { 201: ZConnection, 409: ZApiError, ...errors },
      },
    },
    async (request, reply) => {
      const { accountId } = request.params;
      const created = await createConnection(
        ctx,
        requireAuthz(request),
        accountId,
        request.body,
        linkOrigin(request, ctx.config),
      );
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/accounts/:accountId/connections/:connectionId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'A SAML connection',
        description: `${spNote} ${accountOnly}`,
        security,
        params: ZConnectionParams,
        response: { 200: ZConnection, ...errors },
      },
    },
    async (request) =>
      getConnection(
        ctx,
        requireAuthz(request),
        request.params.accountId,
        request.params.connectionId,
        linkOrigin(request, ctx.config),
      ),
  );

  app.put(
    '/api/accounts/:accountId/connections/:connectionId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Replace a SAML connection',
        description: `The whole connection, as on create. Domains it no longer names stay on the account. ${bodyNote} ${accountOnly}`,
        security,
        params: ZConnectionParams,
        body: ZConnectionBody,
        response: { 200: ZConnection, 409: ZApiError, ...errors },
      },
    },
    async (request) =>
      replaceConnection(
        ctx,
        requireAuthz(request),
        request.params.accountId,
        request.params.connectionId,
        request.body,
        linkOrigin(request, ctx.config),
      ),
  );

  app.delete(
    '/api/accounts/:accountId/connections/:connectionId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a SAML connection',
        description: `Its domains stay on the account, on no connection. ${accountOnly}`,
        security,
        params: ZConnectionParams,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteConnection(ctx, requireAuthz(request), request.params.accountId, request.params.connectionId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/saml/:connectionUuid/metadata',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Patchwell’s SP metadata for a connection',
        description:
          'Public, for identity providers: an md:EntityDescriptor (entity ID = this URL, AssertionConsumerService HTTP-POST at `/api/saml/{uuid}/acs`, ' +
          'NameIDFormat emailAddress, WantAssertionsSigned). 404 for an unknown connection; 409 when the server’s public address is unknown.',
        params: z.object({ connectionUuid: z.uuid() }),
        response: {
          200: z.string().describe('application/samlmetadata+xml'),
          400: ZApiError,
          404: ZApiError,
          409: ZApiError,
        },
      },
    },
    async (request, reply) => {
      const xml = await connectionSpMetadata(ctx, request.params.connectionUuid, linkOrigin(request, ctx.config));
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  );
}
