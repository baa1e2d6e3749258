import {
  ZBillingOverview,
  ZInvoiceList,
  type BillingInfoBody,
  type ChangePlanBody,
} from '@patchwell/core/billing/billing.schema';
import { useQuery } from '@tanstack/react-query';
import { api, encodeQuery } from '../../api/client';

/** The billing tab's calls (`/api/billing…`): read with Billing.read, changed with Billing.modify. */
export const billingKeys = {
  all: ['billing'] as const,
  overview: (zoneId: number) => ['billing', zoneId, 'overview'] as const,
  invoices: (zoneId: number, page: number) => ['billing', zoneId, 'invoices', page] as const,
};

/** `GET /api/billing?o=`. */
export function useBillingOverview(zoneId: number) {
  return useQuery({
    queryKey: billingKeys.overview(zoneId),
    queryFn: ({ signal }) => api.request('/api/billing', { query: { o: zoneId }, schema: ZBillingOverview, signal }),
  });
}

/** `GET /api/billing/invoices?o=`: newest first, 25 a page. */
export function useInvoices(zoneId: number, page: number) {
  return useQuery({
    queryKey: billingKeys.invoices(zoneId, page),
    queryFn: ({ signal }) =>
      api.request('/api/billing/invoices', { query: { o: zoneId, page, limit: 25 }, schema: ZInvoiceList, signal }),
  });
}

export function changePlan(zoneId: number, body: ChangePlanBody) {
  return api.request('/api/billing/plan', { method: 'PUT', query: { o: zoneId }, body, schema: ZBillingOverview });
}

export function saveBillingInfo(zoneId: number, body: BillingInfoBody) {
  return api.request('/api/billing/info', { method: 'PUT', query: { o: zoneId }, body, schema: ZBillingOverview });
}

/** An invoice's PDF or CSV, as a download link. */
export function invoiceHref(zoneId: number, invoiceId: number, format: 'pdf' | 'csv'): string {
  return `/api/billing/invoices/${invoiceId}/${format}?${encodeQuery({ o: zoneId })}`;
}
