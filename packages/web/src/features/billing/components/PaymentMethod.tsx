import type { BillingOverview } from '@patchwell/core/billing/billing.schema';
import { PAYMENT_OPTION_LABELS } from '@patchwell/core/billing/billing.schema';
import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import { Stack, Text, Title } from '@mantine/core';

/** The payment method in use: invoice (bank transfer) or purchase order; no card is taken. */
export function PaymentMethod({ overview }: { overview: BillingOverview }) {
  const option = overview.info?.payment_option;
  return (
    <Stack gap="xs">
      <Title order={3}>{T.paymentTitle}</Title>
      {option ? (
        <>
          <Text fw={600}>{PAYMENT_OPTION_LABELS[option]}</Text>
          <Text size="sm">
            {option === 'invoice' ? T.paymentInvoice : T.paymentPurchaseOrder(overview.info?.po_number ?? '')}
          </Text>
        </>
      ) : (
        <Text size="sm">{T.paymentNone}</Text>
      )}
      <Text size="sm" c="dimmed">
        {T.paymentNoCard}
      </Text>
    </Stack>
  );
}
