import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZAccountDomain,
  ZAccountDomainList,
  ZAddDomainBody,
  ZDomainVerifyResult,
} from '@patchwell/core/sso/domains.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { ZAccountParams } from '../../http/params';
import { addDomain, deleteDomain, listAccountDomains, verifyDomain } from './domains.service';

const tags = ['sso'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const ZDomainParams = ZAccountParams.extend({ domainId: z.uuid() });
const accountOnly =
  'Global administrators of the account only (Saml.read to list, Saml.manage to change): another account or its domain answers 404, other users of the account 403.';

/** An account's e-mail domains, proved through a DNS TXT record (Global setup › Domains). */
export async function domainsRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/domains',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The account’s domains',
        description: `Each with its status, the TXT record that proves it and the connection it is on. ${accountOnly}`,
        security,
        params: ZAccountParams,
        response: { 200: ZAccountDomainList, ...errors },
      },
    },
    async (request) => listAccountDomains(ctx, requireAuthz(request), request.params.accountId),
  );

  app.post(
    '/api/accounts/:accountId/domains',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Add a domain (pending until verified)',
        description:
          'The name is lower-cased and loses a trailing dot. 409 when the account has it already, or another account verified it. ' +
          accountOnly,
        security,
        params: ZAccountParams,
        body: ZAddDomainBody,
        response: { 201: ZAccountDomain, 409: ZApiError, ...errors },
      },
    },
    async (request, reply) => {
      const domain = await addDomain(ctx, requireAuthz(request), request.params.accountId, request.body);
      return reply.code(201).send(domain);
    },
  );

  app.delete(
    '/api/accounts/:accountId/domains/:domainId',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Delete a domain',
        description: `409 while a connection names it (remove it from the connection first). ${accountOnly}`,
        security,
        params: ZDomainParams,
        response: { 204: z.void(), 409: ZApiError, ...errors },
      },
    },
    async (request, reply) => {
      await deleteDomain(ctx, requireAuthz(request), request.params.accountId, request.params.domainId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/accounts/:accountId/domains/:domainId/verify',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Check the domain’s TXT record now',
        description:
          'Asks DNS for the TXT record `patchwell-verification=<token>` on the domain. Found: the domain becomes verified. ' +
          'Not found, or DNS gave no answer: it stays pending, `verified` is false and `message` says why (DNS changes can take up to 24 hours). ' +
          `409 when another account verified the domain first. ${accountOnly}`,
        security,
        params: ZDomainParams,
        response: { 200: ZDomainVerifyResult, 409: ZApiError, ...errors },
      },
    },
    async (request) => verifyDomain(ctx, requireAuthz(request), request.params.accountId, request.params.domainId),
  );
}
