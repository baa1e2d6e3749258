import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import type { FleetDashboard } from '@patchwell/core/reports/dashboard.schema';
import { CONSOLE_TEXTS } from '../../../texts';

const T = CONSOLE_TEXTS.dashboard;

/** `2026-03-02` → `Mar 2`. */
function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** Compliant devices in percent per day; days without a snapshot are gaps, not zeros. */
export function ComplianceTrend({ trend }: { trend: FleetDashboard['compliance']['trend'] }) {
  // The chart's root takes no ARIA attributes of its own: an image role around it names it.
  return (
    <div role="img" aria-label={T.complianceTrend}>
      <LineChart
        h={200}
        data={trend.map((d) => ({ day: shortDay(d.date), percent: d.percent }))}
        dataKey="day"
        yAxisProps={{ domain: [0, 100] }}
        connectNulls={false}
        series={[{ name: 'percent', label: T.percentLabel, color: 'green.6' }]}
      />
    </div>
  );
}

/** Patches installed and failed installs per day of the last week. */
export function ActivityChart({ days }: { days: FleetDashboard['activity'] }) {
  return (
    <BarChart
      h={200}
      data={days.map((d) => ({ day: shortDay(d.date), installed: d.installed, failed: d.failed }))}
      dataKey="day"
      withLegend
      aria-label={T.activity}
      series={[
        { name: 'installed', label: T.installed, color: 'blue.6' },
        { name: 'failed', label: T.failed, color: 'orange.6' },
      ]}
    />
  );
}
