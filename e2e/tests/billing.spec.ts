import { expect, test } from '@playwright/test';
import { BILLING_TEXTS } from '../../packages/core/src/billing/billing.schema';
import { TEXTS } from '../../packages/core/src/texts';
import { expectShell, signIn } from './helpers';

/**
 * The billing tab in Chromium: the billing information form and the plan change refuse with
 * the spec's texts, then save; what was saved is what the server answers after a reload.
 */
test('the billing form shows the spec’s validation texts, then saves the billing information', async ({ page }) => {
  // The longest form of the journeys, often the first to run while the demo fleet enrols.
  test.setTimeout(90_000);
  await signIn(page);
  const zone = await expectShell(page);
  await page.goto(`/console/settings/billing?o=${zone}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Billing' })).toBeVisible();

  // A plan must be chosen before the plan changes.
  const plans = page.getByRole('form', { name: 'Plans' });
  await plans.getByRole('button', { name: 'Change Plan' }).click();
  await expect(plans.getByText(BILLING_TEXTS.selectPlan)).toBeVisible();

  const form = page.getByRole('form', { name: 'Billing Information' });
  const field = (label: string) => form.getByRole('textbox', { name: new RegExp(`^${label}`) });
  for (const label of ['Company name', 'Address line 1', 'Address line 2', 'City', 'Zip code', 'State', 'Country'])
    await field(label).fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(BILLING_TEXTS.paymentOption)).toBeVisible();
  await expect(form.getByText(TEXTS.validation.required)).toHaveCount(6);

  await field('Address line 1').fill('x'.repeat(101));
  await field('Company name').fill('y'.repeat(46));
  await field('Zip code').fill('9'.repeat(21));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('The first address line cannot exceed 100 characters.')).toBeVisible();
  await expect(form.getByText(BILLING_TEXTS.companyMax)).toBeVisible();
  await expect(form.getByText(BILLING_TEXTS.zipMax)).toBeVisible();
  await expect(form.getByText(BILLING_TEXTS.paymentOption)).toBeVisible();

  // A valid form is saved; card payment is not among the options.
  await expect(form.getByRole('radio')).toHaveCount(2);
  await field('Company name').fill('Acme Corp');
  await field('Address line 1').fill('1 Main Street');
  await field('City').fill('Springfield');
  await field('Zip code').fill('62701');
  await field('State').fill('IL');
  await field('Country').fill('United States');
  await form.getByRole('radio', { name: 'Invoice (bank transfer)' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Success: Billing information saved.')).toBeVisible();
  await expect(page.getByText('Invoices are sent at the end of each month and paid by bank transfer.')).toBeVisible();

  await page.reload();
  await expect(field('Company name')).toHaveValue('Acme Corp');
  await expect(field('Zip code')).toHaveValue('62701');
  await expect(form.getByRole('radio', { name: 'Invoice (bank transfer)' })).toBeChecked();
  const saved = await page.request.get(`/api/billing?o=${zone}`);
  expect(saved.status()).toBe(200);
  expect((await saved.json()).info).toMatchObject({ company_name: 'Acme Corp', payment_option: 'invoice' });
});
