import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';

/** Devices and patches per group (severity, age bucket); the table beside it has the same numbers as links. */
export function CountsBarChart({
  label,
  rows,
  devicesLabel,
  patchesLabel,
}: {
  label: string;
  rows: { label: string; devices: number; patches: number }[];
  devicesLabel: string;
  patchesLabel: string;
}) {
  return (
    <BarChart
      h={200}
      data={rows.map((r) => ({ group: r.label, devices: r.devices, patches: r.patches }))}
      dataKey="group"
      withLegend
      aria-label={label}
      series={[
        { name: 'devices', label: devicesLabel, color: 'blue.6' },
        { name: 'patches', label: patchesLabel, color: 'grape.6' },
      ]}
    />
  );
}
