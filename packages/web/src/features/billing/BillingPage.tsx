import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import { Alert, Divider, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../api/error-text';
import { useShell } from '../../app/shell-context';
import { usePageTitle } from '../../ui/usePageTitle';
import { billingKeys, useBillingOverview } from './billing.api';
import { BillingFaqs } from './components/BillingFaqs';
import { BillingHistory } from './components/BillingHistory';
import { BillingInfoForm } from './components/BillingInfoForm';
import { BillSummaryCalculator } from './components/BillSummaryCalculator';
import { PaymentMethod } from './components/PaymentMethod';
import { PlanSection } from './components/PlanSection';

/**
 * /settings/billing (Billing.read; changes need Billing.modify): plans, payment method,
 * billing information, billing history with invoice export, the bill summary calculator and
 * the FAQs (spec B section 2).
 */
export function BillingPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const queryClient = useQueryClient();
  const overview = useBillingOverview(zoneId);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: billingKeys.all });

  if (overview.isPending) return <Loader role="progressbar" aria-label={T.title} />;
  if (overview.isError) return <Text c="red">{errorText(overview.error)}</Text>;
  const o = overview.data;
  return (
    <Stack gap="lg">
      <Title order={2}>{T.title}</Title>
      {o.on_trial && o.trial_end_time && <Alert color="blue">{T.trialUntil(o.trial_end_time.slice(0, 10))}</Alert>}
      <Text size="sm">
        {T.currentPeriod(o.current_period.start, o.current_period.end, o.current_period.device_days)}
      </Text>
      <Paper withBorder p="md">
        <PlanSection key={`${o.plan}:${o.interval}`} zoneId={zoneId} overview={o} onChanged={refresh} />
      </Paper>
      <Paper withBorder p="md">
        <PaymentMethod overview={o} />
      </Paper>
      <Paper withBorder p="md">
        <BillingInfoForm zoneId={zoneId} overview={o} onSaved={refresh} />
      </Paper>
      <Paper withBorder p="md">
        <BillingHistory zoneId={zoneId} />
      </Paper>
      <Paper withBorder p="md">
        <BillSummaryCalculator plan={o.plan} interval={o.interval} rates={o.rates} />
      </Paper>
      <Divider />
      <BillingFaqs />
    </Stack>
  );
}
