import { Card, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';

export type StatLink = { label: string; value: number; to: string };

/**
 * Figures as cards, each a link to the list it counts. The accessible name says both the
 * figure and what it is ("Online: 12"), so a screen reader reads the link as a sentence.
 */
export function StatLinks({ stats, label }: { stats: StatLink[]; label: string }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0 }}>
      {stats.map((s) => (
        <li key={s.label}>
          <Card withBorder padding="md" radius="md" component={Link} to={s.to} aria-label={`${s.label}: ${s.value}`}>
            <Text size="sm" c="dimmed">
              {s.label}
            </Text>
            <Text fz="h3" fw={700}>
              {s.value}
            </Text>
          </Card>
        </li>
      ))}
    </SimpleGrid>
  );
}
