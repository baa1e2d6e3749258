import { BILLING_TEXTS, type BillingOverview } from '@patchwell/core/billing/billing.schema';
import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import {
  BILLING_INTERVAL_LABELS,
  BILLING_INTERVALS,
  formatCents,
  monthlyRate,
  PLAN_FEATURES,
  PLAN_LABELS,
  type BillingInterval,
} from '@patchwell/core/billing/pricing';
import { PLANS, type Plan } from '@patchwell/core/rules/tiers';
import {
  Badge,
  Button,
  Card,
  Group,
  List,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../api/error-text';
import { serverFieldErrors } from '../../../api/field-errors';
import { notify } from '../../../ui/notify';
import { changePlan } from '../billing.api';

export type PlanSectionProps = { zoneId: number; overview: BillingOverview; onChanged: () => void };

/** The plans' cards with their features and prices per interval; choosing one changes the zone's plan. */
export function PlanSection({ zoneId, overview, onChanged }: PlanSectionProps) {
  const [interval, setInterval] = useState<BillingInterval>(overview.interval);
  const [plan, setPlan] = useState<Plan | ''>('');
  const [error, setError] = useState<string | undefined>();
  const [isSaving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!plan) {
      setError(BILLING_TEXTS.selectPlan);
      return;
    }
    setError(undefined);
    setSaving(true);
    try {
      await changePlan(zoneId, { plan, interval });
      notify.success(T.planChanged);
      setPlan('');
      onChanged();
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields.plan) setError(fields.plan);
      else notify.error(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="billing-plans">
      <Stack gap="sm">
        <Title order={3} id="billing-plans">
          {T.plansTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {T.plansDescription}
        </Text>
        <SegmentedControl
          aria-label={T.interval}
          value={interval}
          onChange={(v) => setInterval(v as BillingInterval)}
          data={BILLING_INTERVALS.map((i) => ({ value: i, label: BILLING_INTERVAL_LABELS[i] }))}
          w="fit-content"
        />
        <Radio.Group
          value={plan}
          onChange={(v) => {
            setPlan(v as Plan);
            setError(undefined);
          }}
          label={T.summaryPlan}
          error={error}
          readOnly={!overview.can_modify}
        >
          <SimpleGrid cols={{ base: 1, md: 3 }} mt="xs">
            {PLANS.map((p) => (
              <Card key={p} withBorder padding="md" data-testid={`plan-${p}`}>
                <Stack gap="xs">
                  <Group justify="space-between">
                    <Radio value={p} label={PLAN_LABELS[p]} disabled={!overview.can_modify} />
                    {overview.plan === p && <Badge variant="light">{T.currentPlan}</Badge>}
                  </Group>
                  <Text fw={700} size="lg">
                    {formatCents(monthlyRate(p, interval, overview.rates))}{' '}
                    <Text span size="sm" c="dimmed" fw={400}>
                      {T.perDeviceMonth}
                    </Text>
                  </Text>
                  <List size="sm" spacing={2}>
                    {PLAN_FEATURES[p].map((f) => (
                      <List.Item key={f}>{f}</List.Item>
                    ))}
                  </List>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
        <Text size="sm">{T.customPlan}</Text>
        {overview.can_modify && (
          <Group>
            <Button type="submit" loading={isSaving}>
              {T.changePlan}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
