import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BillingOverview } from '@patchwell/core/billing/billing.schema';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { BillingPage } from './BillingPage';

const acme = buildZone({ id: 1, name: 'Acme' });
let overview: BillingOverview;
let server: Awaited<ReturnType<typeof startTestServer>>;

const baseOverview = (): BillingOverview => ({
  plan: 'tier3',
  interval: 'monthly',
  trial_end_time: null,
  on_trial: false,
  info: null,
  current_period: { start: '2026-03-01', end: '2026-03-31', device_days: 12, days_metered: 4 },
  can_modify: true,
  // The server's price list (BILLING_RATES), not core's default one: the page shows these.
  rates: {
    monthly: { patch: 250, manage: 399, full_annual_base_rate: 600 },
    yearly: { patch: 200, manage: 333, full_annual_base_rate: 500 },
  },
});

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/billing': () => ({ body: overview }),
    'PUT /api/billing/info': (req) => {
      overview = { ...overview, info: { ...JSON.parse(req.body), updated_at: '2026-03-05T10:00:00Z' } };
      return { body: overview };
    },
    'PUT /api/billing/plan': (req) => {
      overview = { ...overview, ...JSON.parse(req.body) };
      return { body: overview };
    },
    'GET /api/billing/invoices': () => ({
      body: {
        data: [
          {
            id: 9,
            number: 'PW-1-202602',
            period_start: '2026-02-01',
            period_end: '2026-02-28',
            issued_at: '2026-03-01T00:10:00Z',
            currency: 'USD',
            total_cents: 8200,
            device_days: 500,
            payment_option: 'invoice',
          },
        ],
        size: 1,
      },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  overview = baseOverview();
  server.requests.length = 0;
});

function renderPage() {
  return renderInShell([{ path: '/settings/billing', element: <BillingPage /> }], '/settings/billing?o=1', {
    profile: buildProfile({ orgs: [acme] }),
  });
}

const puts = (path: string) => server.requests.filter((r) => r.method === 'PUT' && r.path.startsWith(path));

describe('Billing page', () => {
  it('checks the billing information with the spec’s texts and saves it', async () => {
    renderPage();
    const form = await screen.findByRole('form', { name: 'Billing Information' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Please provide a payment option.')).toBeInTheDocument();
    // Company, address line 1, city, zip, state and country are required.
    expect(within(form).getAllByText('This field is required.')).toHaveLength(6);

    const fill = async (name: RegExp, value: string) => {
      const input = within(form).getByRole('textbox', { name });
      await userEvent.clear(input);
      await userEvent.click(input);
      await userEvent.paste(value);
    };
    await fill(/Address line 1/, 'x'.repeat(101));
    await fill(/Company name/, 'y'.repeat(46));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The first address line cannot exceed 100 characters.')).toBeInTheDocument();
    expect(within(form).getByText('The company name cannot exceed 45 characters.')).toBeInTheDocument();
    expect(puts('/api/billing/info')).toHaveLength(0);

    await fill(/Address line 1/, '1 Main Street');
    await fill(/Company name/, 'Acme Corp');
    await fill(/City/, 'Springfield');
    await fill(/Zip code/, '62701');
    await fill(/State/, 'IL');
    await fill(/Country/, 'United States');
    await userEvent.click(within(form).getByRole('radio', { name: 'Purchase order' }));
    await fill(/Purchase order number/, 'PO-7781');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts('/api/billing/info')).toHaveLength(1));
    expect(JSON.parse(puts('/api/billing/info')[0]!.body)).toEqual({
      address_line1: '1 Main Street',
      address_line2: '',
      city: 'Springfield',
      company_name: 'Acme Corp',
      zip_code: '62701',
      state: 'IL',
      country: 'United States',
      payment_option: 'purchase_order',
      po_number: 'PO-7781',
    });
    expect(await screen.findByText('Invoices are issued against purchase order PO-7781.')).toBeInTheDocument();
  });

  it('asks for a plan before changing it, then sends the plan and interval', async () => {
    renderPage();
    const plans = await screen.findByRole('form', { name: 'Plans' });
    expect(within(screen.getByTestId('plan-tier3')).getByText('Current plan')).toBeInTheDocument();
    expect(within(screen.getByTestId('plan-manage')).getByText('$3.99')).toBeInTheDocument();
    await userEvent.click(within(plans).getByRole('button', { name: 'Change Plan' }));
    expect(await within(plans).findByText('You must select a plan.')).toBeInTheDocument();
    expect(puts('/api/billing/plan')).toHaveLength(0);

    await userEvent.click(within(plans).getByRole('radio', { name: 'Yearly' }));
    expect(within(screen.getByTestId('plan-manage')).getByText('$3.33')).toBeInTheDocument();
    await userEvent.click(within(plans).getByRole('radio', { name: 'Standard' }));
    await userEvent.click(within(plans).getByRole('button', { name: 'Change Plan' }));
    await waitFor(() => expect(puts('/api/billing/plan')).toHaveLength(1));
    expect(JSON.parse(puts('/api/billing/plan')[0]!.body)).toEqual({ plan: 'manage', interval: 'yearly' });
    await waitFor(() =>
      expect(within(screen.getByTestId('plan-manage')).getByText('Current plan')).toBeInTheDocument(),
    );
  });

  it('lists invoices with their exports and prices devices with the volume discount', async () => {
    renderPage();
    const history = await screen.findByRole('table', { name: 'Billing History' });
    expect(within(history).getByText('PW-1-202602')).toBeInTheDocument();
    expect(within(history).getByText('$82.00')).toBeInTheDocument();
    expect(within(history).getByRole('link', { name: 'PW-1-202602 PDF' })).toHaveAttribute(
      'href',
      '/api/billing/invoices/9/pdf?o=1',
    );
    expect(within(history).getByRole('link', { name: 'PW-1-202602 CSV' })).toHaveAttribute(
      'href',
      '/api/billing/invoices/9/csv?o=1',
    );

    const devices = screen.getByRole('textbox', { name: 'Devices' });
    await userEvent.clear(devices);
    await userEvent.type(devices, '600');
    // Complete monthly at the server's $6.00: 500 × $6.00 + 100 × $5.40.
    await waitFor(() => expect(screen.getByTestId('summary-month')).toHaveTextContent('$3,540.00'));
    expect(screen.getByText('Devices 501–1000 (10% off)')).toBeInTheDocument();
    expect(screen.getByText('Billing FAQs')).toBeInTheDocument();
  });

  it('offers no changes to a caller without Billing.modify, and never a card', async () => {
    overview = { ...baseOverview(), can_modify: false };
    renderPage();
    await screen.findByRole('form', { name: 'Billing Information' });
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change Plan' })).not.toBeInTheDocument();
    expect(screen.getByText('You can view billing but not change it.')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /card/i })).not.toBeInTheDocument();
  });
});
