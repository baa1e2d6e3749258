import { Anchor, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CONSOLE_TEXTS } from '../../../texts';

export type Bar = { label: string; value: number; color: string; to: string };

/** A titled card, a region named by its title. */
export function DashboardCard({ title, children, link }: { title: string; children: ReactNode; link?: ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4">
            {title}
          </Title>
          {link}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** Labelled bars, each a share of `total` and a link to its list. */
export function BarsCard({ title, bars, total }: { title: string; bars: Bar[]; total: number }) {
  return (
    <DashboardCard title={title}>
      {bars.map((b) => (
        <Stack gap={4} key={b.label}>
          <Group justify="space-between">
            <Anchor component={Link} to={b.to} size="sm">
              {b.label}
            </Anchor>
            <Text size="sm" fw={700}>
              {b.value}
            </Text>
          </Group>
          <Progress
            value={total > 0 ? (b.value / total) * 100 : 0}
            color={b.color}
            aria-label={`${title}: ${b.label}`}
          />
        </Stack>
      ))}
    </DashboardCard>
  );
}

/** A figure that is a link to the list behind it. */
export function Stat({ label, value, to }: { label: string; value: ReactNode; to: string }) {
  return (
    <Card withBorder padding="lg" radius="md" component={Link} to={to} aria-label={`${label}: ${String(value)}`}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="h2" fw={700}>
        {value}
      </Text>
    </Card>
  );
}

/** A small table, or a sentence when it has no rows. */
export function MiniTable({ head, rows, empty }: { head: string[]; rows: ReactNode[][]; empty: string }) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Table striped aria-label={head.join(', ')}>
      <Table.Thead>
        <Table.Tr>
          {head.map((h) => (
            <Table.Th key={h}>{h}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((cells, i) => (
          <Table.Tr key={i}>
            {cells.map((c, j) => (
              <Table.Td key={j}>{c}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export const SEVERITY_COLORS: Record<string, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'blue',
  none: 'gray',
  unknown: 'gray',
};
export const AGE_COLORS = ['teal', 'yellow', 'orange', 'red', 'grape', 'gray'];
export const severityLabel = (s: string) => CONSOLE_TEXTS.severity[s] ?? s;
