import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import type { OverviewDay } from '@patchwell/core/reports/reports.schema';
import { formatShortDay } from '../../../ui/format-date';
import { REPORTS_TEXTS } from '../reports.texts';

const T = REPORTS_TEXTS.overview;

/**
 * Compliant and not compliant devices per day. Days without a recorded figure are gaps,
 * not zeros. The table beside it carries the same numbers for screen readers and links.
 */
export function ComplianceChart({ days }: { days: readonly OverviewDay[] }) {
  const data = days.map((d) => ({
    day: formatShortDay(d.date),
    compliant: d.compliant,
    not_compliant: d.not_compliant,
  }));
  return (
    <AreaChart
      h={240}
      data={data}
      dataKey="day"
      type="stacked"
      connectNulls={false}
      withLegend
      aria-label={T.complianceChart}
      series={[
        { name: 'compliant', label: T.compliant, color: 'green.6' },
        { name: 'not_compliant', label: T.notCompliant, color: 'red.6' },
      ]}
    />
  );
}

/** Patches installed and failed install commands per day. */
export function PatchActivityChart({ days }: { days: readonly OverviewDay[] }) {
  const data = days.map((d) => ({ day: formatShortDay(d.date), installed: d.patches_installed, failures: d.failures }));
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="day"
      withLegend
      aria-label={T.activityChart}
      series={[
        { name: 'installed', label: T.installed, color: 'blue.6' },
        { name: 'failures', label: T.failures, color: 'orange.6' },
      ]}
    />
  );
}
