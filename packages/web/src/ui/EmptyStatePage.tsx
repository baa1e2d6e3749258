import { EmptyState, Stack, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { usePageTitle } from './usePageTitle';

export type EmptyStatePageProps = {
  title: string;
  /** One line about what arrives on this page. */
  description: string;
  icon?: ReactNode;
  /** Content above the empty state (tabs of a section). */
  before?: ReactNode;
  children?: ReactNode;
};

/** A page that has no content yet: its title and one line about what will appear. */
export function EmptyStatePage({ title, description, icon, before, children }: EmptyStatePageProps) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        {title}
      </Title>
      {before}
      <EmptyState
        py="xl"
        icon={icon ?? <IconLayoutDashboard size={32} stroke={1.5} aria-hidden="true" />}
        withIndicatorBackground
        description={description}
      >
        {children}
      </EmptyState>
    </Stack>
  );
}
