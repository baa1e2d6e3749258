import { BILLING_PAGE_TEXTS as T } from '@patchwell/core/billing/billing.texts';
import {
  BILLING_INTERVAL_LABELS,
  BILLING_INTERVALS,
  billSummary,
  formatCents,
  PLAN_LABELS,
  type BillingInterval,
  type RateTable,
} from '@patchwell/core/billing/pricing';
import { PLANS, type Plan } from '@patchwell/core/rules/tiers';
import { Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';

/**
 * Devices × rate with the volume discount above 500 devices: core's `billSummary` over the
 * server's price list, as the invoices use.
 */
export function BillSummaryCalculator({
  plan,
  interval,
  rates,
}: {
  plan: Plan;
  interval: BillingInterval;
  rates: RateTable;
}) {
  const [devices, setDevices] = useState<number>(100);
  const [chosenPlan, setPlan] = useState<Plan>(plan);
  const [chosenInterval, setInterval] = useState<BillingInterval>(interval);
  const summary = billSummary(devices, chosenPlan, chosenInterval, rates);
  return (
    <Stack gap="sm">
      <Title order={3}>{T.summaryTitle}</Title>
      <Group align="flex-end">
        <NumberInput
          label={T.summaryDevices}
          min={0}
          max={1_000_000}
          allowDecimal={false}
          value={devices}
          onChange={(v) => setDevices(typeof v === 'number' ? v : Number(v) || 0)}
          w={160}
        />
        <Select
          label={T.summaryPlan}
          data={PLANS.map((p) => ({ value: p, label: PLAN_LABELS[p] }))}
          value={chosenPlan}
          onChange={(v) => v && setPlan(v as Plan)}
          allowDeselect={false}
          w={180}
        />
        <SegmentedControl
          aria-label={`${T.summaryTitle}: ${T.interval}`}
          value={chosenInterval}
          onChange={(v) => setInterval(v as BillingInterval)}
          data={BILLING_INTERVALS.map((i) => ({ value: i, label: BILLING_INTERVAL_LABELS[i] }))}
        />
      </Group>
      <Table aria-label={T.summaryTitle}>
        <Table.Tbody>
          {summary.lines.map((l) => (
            <Table.Tr key={l.label}>
              <Table.Td>
                {l.label}
                {l.discountPct ? ` (${l.discountPct}% off)` : ''}
              </Table.Td>
              <Table.Td>
                {l.devices} × {formatCents(l.unitMonthlyCents)}
              </Table.Td>
              <Table.Td>{formatCents(l.monthlyCents)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td fw={700}>{T.summaryPerMonth}</Table.Td>
            <Table.Td />
            <Table.Td fw={700} data-testid="summary-month">
              {formatCents(summary.monthlyCents)}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>{T.summaryPerYear}</Table.Td>
            <Table.Td />
            <Table.Td>{formatCents(summary.yearlyCents)}</Table.Td>
          </Table.Tr>
          {summary.discountCents > 0 && (
            <Table.Tr>
              <Table.Td>{T.summaryDiscount}</Table.Td>
              <Table.Td />
              <Table.Td>{formatCents(summary.discountCents)}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        {T.summaryVolumeNote}
      </Text>
    </Stack>
  );
}
