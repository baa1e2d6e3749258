import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBillingInfoBody,
  ZBillingOverview,
  ZChangePlanBody,
  ZInvoiceDetail,
  ZInvoiceList,
  ZInvoiceListQuery,
  ZInvoiceParams,
} from '@patchwell/core/billing/billing.schema';
import { ZApiError } from '@patchwell/core/shell/errors';
import { ZZoneQuery } from '@patchwell/core/zones/zone-query.schema';
import type { AppContext } from '../../context';
import { requireAuthz } from '../../http/authz';
import {
  changePlan,
  getBillingOverview,
  getInvoice,
  invoiceDownload,
  listInvoices,
  saveBillingInfo,
} from './billing.service';

const tags = ['billing'];
const security: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError };
const READ = 'Billing.read in the zone `o`.';
const MODIFY = 'Billing.modify in the zone `o`; recorded in the activity log.';
const INVOICE = `${READ} Another zone’s invoice: 404. Invoices are immutable: there is no route to change one.`;

/** The billing tab (`/api/billing…`): plan, billing information, invoices. */
export async function billingRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const common = { config: { access: 'session' as const } };

  app.get(
    '/api/billing',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s plan, interval, billing information and current period',
        description: READ,
        security,
        querystring: ZZoneQuery,
        response: { 200: ZBillingOverview, ...errors },
      },
    },
    async (request) => getBillingOverview(ctx, requireAuthz(request), request.query.o),
  );

  app.put(
    '/api/billing/plan',
    {
      ...common,
      schema: {
        tags,
        summary: 'Change the zone’s plan and billing interval',
        description: `${MODIFY} Days are billed on the plan in force when they are metered (just after they end).`,
        security,
        querystring: ZZoneQuery,
        body: ZChangePlanBody,
        response: { 200: ZBillingOverview, ...errors },
      },
    },
    async (request) => changePlan(ctx, requireAuthz(request), request.query.o, request.body),
  );

  app.put(
    '/api/billing/info',
    {
      ...common,
      schema: {
        tags,
        summary: 'Save the zone’s billing information and payment option',
        description: `${MODIFY} Payment options: invoice (bank transfer) or purchase order.`,
        security,
        querystring: ZZoneQuery,
        body: ZBillingInfoBody,
        response: { 200: ZBillingOverview, ...errors },
      },
    },
    async (request) => saveBillingInfo(ctx, requireAuthz(request), request.query.o, request.body),
  );

  app.get(
    '/api/billing/invoices',
    {
      ...common,
      schema: {
        tags,
        summary: 'The zone’s invoices (billing history)',
        description: `${READ} Newest period first; zero-based \`page\`, \`limit\` 1–700.`,
        security,
        querystring: ZInvoiceListQuery,
        response: { 200: ZInvoiceList, ...errors },
      },
    },
    async (request) => listInvoices(ctx, requireAuthz(request), request.query),
  );

  app.get(
    '/api/billing/invoices/:invoiceId',
    {
      ...common,
      schema: {
        tags,
        summary: 'One invoice with its numbered lines',
        description: INVOICE,
        security,
        params: ZInvoiceParams,
        querystring: ZZoneQuery,
        response: { 200: ZInvoiceDetail, ...errors },
      },
    },
    async (request) => getInvoice(ctx, requireAuthz(request), request.query.o, request.params.invoiceId),
  );

  for (const format of ['pdf', 'csv'] as const) {
    app.get(
      `/api/billing/invoices/:invoiceId/${format}`,
      {
        ...common,
        schema: {
          tags,
          summary: `Download an invoice as ${format.toUpperCase()}`,
          description: INVOICE,
          security,
          params: ZInvoiceParams,
          querystring: ZZoneQuery,
          response: { 200: z.any(), ...errors },
        },
      },
      async (request, reply) => {
        const file = await invoiceDownload(
          ctx,
          requireAuthz(request),
          request.query.o,
          request.params.invoiceId,
          format,
        );
        return reply
          .type(file.contentType)
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .send(file.body);
      },
    );
  }
}
