import type { CveDetail } from '@patchwell/core/remediation/cves.schema';
import { Group, Stack, Table, Text, Title } from '@mantine/core';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

type Day = CveDetail['history'][number];

const WIDTH = 480;
const HEIGHT = 96;
const PAD = 4;
/** Days listed in the table under the chart (the chart shows them all). */
const TABLE_DAYS = 14;
// Shade 8/9 of the theme's red and green: 4.5:1 and more on white.
const AFFECTED_COLOR = 'var(--mantine-color-red-8)';
const REMEDIATED_COLOR = 'var(--mantine-color-green-9)';

function points(days: readonly Day[], pick: (d: Day) => number, max: number): string {
  // One point draws no line: a single day spans the chart as a level line.
  if (days.length === 1) days = [days[0]!, days[0]!];
  const step = days.length > 1 ? (WIDTH - 2 * PAD) / (days.length - 1) : 0;
  return days
    .map((d, i) => {
      const x = PAD + i * step;
      const y = HEIGHT - PAD - (max > 0 ? (pick(d) / max) * (HEIGHT - 2 * PAD) : 0);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <svg width="16" height="4" aria-hidden="true">
        <rect width="16" height="4" fill={color} />
      </svg>
      <Text size="xs">{label}</Text>
    </Group>
  );
}

/**
 * The CVE's fix status over time: devices affected and remediated at the end of each day,
 * as a small line chart (plain SVG; STACK.md's chart library is not a dependency of the
 * console) described in words for screen readers, and the last days as a table.
 */
export function FixHistory({ history }: { history: CveDetail['history'] }) {
  if (history.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {T.historyEmpty}
      </Text>
    );
  }
  const max = Math.max(1, ...history.map((d) => Math.max(d.affected, d.remediated)));
  const first = history[0]!;
  const last = history[history.length - 1]!;
  const recent = history.slice(-TABLE_DAYS).reverse();
  return (
    <Stack gap="sm" component="section" aria-labelledby="history-title">
      <Title order={2} fz="h4" id="history-title">
        {T.historyTitle}
      </Title>
      <svg
        role="img"
        aria-label={T.historyChart(first.date, last.date, last.affected, last.remediated)}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ maxWidth: WIDTH, height: 'auto', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}
      >
        <polyline
          fill="none"
          stroke={AFFECTED_COLOR}
          strokeWidth="2"
          points={points(history, (d) => d.affected, max)}
        />
        <polyline
          fill="none"
          stroke={REMEDIATED_COLOR}
          strokeWidth="2"
          strokeDasharray="6 3"
          points={points(history, (d) => d.remediated, max)}
        />
      </svg>
      <Group gap="md">
        <Legend color={AFFECTED_COLOR} label={T.affected} />
        <Legend color={REMEDIATED_COLOR} label={T.remediated} />
      </Group>
      <Table withTableBorder fz="sm" aria-label={T.historyLabel} maw={WIDTH}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{T.date}</Table.Th>
            <Table.Th scope="col">{T.affected}</Table.Th>
            <Table.Th scope="col">{T.remediated}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {recent.map((d) => (
            <Table.Tr key={d.date}>
              <Table.Td>{d.date}</Table.Td>
              <Table.Td>{d.affected}</Table.Td>
              <Table.Td>{d.remediated}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
