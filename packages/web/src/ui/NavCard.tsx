import { Badge, Button, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type NavCardProps = {
  icon: ReactNode;
  label: string;
  description?: string;
  badge?: string;
  /** Route the button opens (with the zone already in its query). */
  to: string;
  buttonLabel: string;
};

/** A navigation card: icon, optional badge, label and a button to a route (spec A section 2). */
export function NavCard({ icon, label, description, badge, to, buttonLabel }: NavCardProps) {
  return (
    <Card withBorder padding="lg" radius="md" component="article">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start">
          <ThemeIcon variant="light" size="xl" radius="md" aria-hidden="true">
            {icon}
          </ThemeIcon>
          {badge && <Badge variant="light">{badge}</Badge>}
        </Group>
        <Text component="h2" fw={600} fz="lg">
          {label}
        </Text>
        {description && (
          <Text size="sm" c="dimmed" style={{ flex: 1 }}>
            {description}
          </Text>
        )}
        <Button component={Link} to={to} variant="light" aria-label={`${buttonLabel}: ${label}`}>
          {buttonLabel}
        </Button>
      </Stack>
    </Card>
  );
}
