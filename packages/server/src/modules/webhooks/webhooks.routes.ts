import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiError } from '@patchwell/core/shell/errors';
import {
  ZCreateWebhookBody,
  ZUpdateWebhookBody,
  ZWebhook,
  ZWebhookDelivery,
  ZWebhookDeliveryList,
  ZWebhookDeliveryListQuery,
  ZWebhookDeliveryParams,
  ZWebhookList,
  ZWebhookListQuery,
  ZWebhookParams,
  ZWebhookWithSecret,
} from '@patchwell/core/webhooks/webhooks.schema';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import { listDeliveries, pingWebhook, redeliver } from './deliveries.service';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from './webhooks.service';

const tags = ['webhooks'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const RIGHT = 'Organization.manage (the zone settings’ right). Another zone’s webhook: 404.';

/** Outgoing webhooks of the zone `o` (`/api/webhooks…`); the scheme is in docs/api/webhooks.md. */
export async function webhooksRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const common = { config: { access: 'session' as const } };

  app.get(
    '/api/webhooks',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s webhooks',
        description: RIGHT,
        security,
        querystring: ZWebhookListQuery,
        response: { 200: ZWebhookList, ...errors },
      },
    },
    async (request) => listWebhooks(ctx, requireAuthz(request), request.query),
  );

  app.post(
    '/api/webhooks',
    {
      ...common,
      schema: {
        tags,
        summary: 'Create a webhook',
        description:
          `${RIGHT} The URL must be https and resolve to public addresses only. The answer carries the ` +
          'signing secret, shown this once. 409 `webhooks.too_many` past 20 webhooks in the zone.',
        security,
        querystring: ZZoneQuery,
        body: ZCreateWebhookBody,
        response: { 201: ZWebhookWithSecret, ...errors, 409: ZApiError },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createWebhook(ctx, requireAuthz(request), request.query.o, request.body)),
  );

  app.get(
    '/api/webhooks/:webhookId',
    {
      ...common,
      schema: {
        tags,
        summary: 'One webhook',
        description: RIGHT,
        security,
        params: ZWebhookParams,
        querystring: ZZoneQuery,
        response: { 200: ZWebhook, ...errors },
      },
    },
    async (request) => getWebhook(ctx, requireAuthz(request), request.query.o, request.params.webhookId),
  );

  app.patch(
    '/api/webhooks/:webhookId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Change a webhook’s URL, events or whether it is enabled',
        description: RIGHT,
        security,
        params: ZWebhookParams,
        querystring: ZZoneQuery,
        body: ZUpdateWebhookBody,
        response: { 200: ZWebhook, ...errors },
      },
    },
    async (request) =>
      updateWebhook(ctx, requireAuthz(request), request.query.o, request.params.webhookId, request.body),
  );

  app.delete(
    '/api/webhooks/:webhookId',
    {
      ...common,
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log',
        description: RIGHT,
        security,
        params: ZWebhookParams,
        querystring: ZZoneQuery,
        response: { 204: z.void(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteWebhook(ctx, requireAuthz(request), request.query.o, request.params.webhookId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/webhooks/:webhookId/rotate-secret',
    {
      ...common,
      schema: {
        tags,
        summary: 'Rotate a webhook’s signing secret',
        description: `${RIGHT} The new secret is in the answer, this once; the old one stops signing at once.`,
        security,
        params: ZWebhookParams,
        querystring: ZZoneQuery,
        response: { 200: ZWebhookWithSecret, ...errors },
      },
    },
    async (request) => rotateWebhookSecret(ctx, requireAuthz(request), request.query.o, request.params.webhookId),
  );

  app.post(
    '/api/webhooks/:webhookId/ping',
    {
      ...common,
      schema: {
        tags,
        summary: 'Send a test delivery',
        description: `${RIGHT} Enqueues a \`ping\` delivery, sent within seconds; follow it in the delivery log.`,
        security,
        params: ZWebhookParams,
        querystring: ZZoneQuery,
        response: { 202: ZWebhookDelivery, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await pingWebhook(ctx, requireAuthz(request), request.query.o, request.params.webhookId)),
  );

  app.get(
    '/api/webhooks/:webhookId/deliveries',
    {
      ...common,
      schema: {
        tags,
        summary: 'A webhook’s delivery log',
        description: `${RIGHT} Newest first; \`status\` filters (pending, delivered, failed). Kept 30 days.`,
        security,
        params: ZWebhookParams,
        querystring: ZWebhookDeliveryListQuery,
        response: { 200: ZWebhookDeliveryList, ...errors },
      },
    },
    async (request) => listDeliveries(ctx, requireAuthz(request), request.params.webhookId, request.query),
  );

  app.post(
    '/api/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      ...common,
      schema: {
        tags,
        summary: 'Deliver one delivery again',
        description: `${RIGHT} Due at once with the same id and body, and a new day of retries.`,
        security,
        params: ZWebhookDeliveryParams,
        querystring: ZZoneQuery,
        response: { 202: ZWebhookDelivery, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await redeliver(
            ctx,
            requireAuthz(request),
            request.query.o,
            request.params.webhookId,
            request.params.deliveryId,
          ),
        ),
  );
}
