import { admin, inZone, q, type Case } from './context';

/** Billing: the plan (kept on Complete: later cases use its features) and the billing information. */
export const billingCases: Record<string, Case> = {
  'PUT /api/billing/plan': {
    run: () => admin().put(q('/api/billing/plan'), { plan: 'tier3', interval: 'yearly' }),
    action: 'billing.plan_change',
    zone: inZone,
  },
  'PUT /api/billing/info': {
    run: () =>
      admin().put(q('/api/billing/info'), {
        address_line1: '1 Main Street',
        address_line2: '',
        city: 'Springfield',
        company_name: 'Acme Corp',
        zip_code: '62701',
        state: 'IL',
        country: 'United States',
        payment_option: 'invoice',
      }),
    action: 'billing.info_update',
    zone: inZone,
  },
};
