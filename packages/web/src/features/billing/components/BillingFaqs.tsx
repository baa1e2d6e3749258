import { BILLING_FAQS } from '@patchwell/core/billing/billing.schema';
import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import { Accordion, Stack, Title } from '@mantine/core';

/** The billing FAQs. */
export function BillingFaqs() {
  return (
    <Stack gap="sm">
      <Title order={3}>{T.faqTitle}</Title>
      <Accordion variant="separated">
        {BILLING_FAQS.map((f) => (
          <Accordion.Item key={f.question} value={f.question}>
            <Accordion.Control>{f.question}</Accordion.Control>
            <Accordion.Panel>{f.answer}</Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
