import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZOutboxPage, ZOutboxQuery } from '@patchwell/core/mail/outbox.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { listOutbox } from './mail.service';
import { ZAccountParams } from '../../http/params';

/** The account's outbox, read by its global administrators. */
export async function mailRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/accounts/:accountId/outbox',
    {
      config: { access: 'session' },
      schema: {
        tags: ['mail'],
        summary: 'Outgoing mail of the account, latest first',
        description:
          'Every message the server sent or would have sent (invitations), with `sent_at` once an SMTP relay ' +
          'accepted it or `error` when sending failed. Without `SMTP_URL` messages only wait here. Global ' +
          'administrators of the account only (403 for its other users, 404 for another account).',
        security: [{ cookieAuth: [] }, { bearerAuth: [] }],
        params: ZAccountParams,
        querystring: ZOutboxQuery,
        response: { 200: ZOutboxPage, 401: ZApiError, 403: ZApiError, 404: ZApiError },
      },
    },
    async (request) => listOutbox(ctx, requireAuthz(request), request.params.accountId, request.query),
  );
}
