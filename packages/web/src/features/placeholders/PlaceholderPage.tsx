import { Stack, Text, Title } from '@mantine/core';
import { EmptyState } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { EmptyStatePage } from '../../ui/EmptyStatePage';
import { usePageTitle } from '../../ui/usePageTitle';
import { PLACEHOLDER_PAGES, type PlaceholderId } from './placeholder-pages';

/**
 * An empty page: its title and one line about what will appear. `level` 2 is for pages
 * inside a section whose layout already has the h1 (settings, reports, global setup).
 */
export function PlaceholderPage({ page, level = 1 }: { page: PlaceholderId; level?: 1 | 2 }) {
  const { title, description } = PLACEHOLDER_PAGES[page];
  if (level === 1) return <EmptyStatePage title={title} description={description} />;
  return <SectionPlaceholder title={title} description={description} />;
}

function SectionPlaceholder({ title, description }: { title: string; description: string }) {
  usePageTitle(title);
  return (
    <Stack gap="md">
      <Title order={2} fz="h3">
        {title}
      </Title>
      <EmptyState
        py="xl"
        icon={<IconHourglassEmpty size={32} stroke={1.5} aria-hidden="true" />}
        withIndicatorBackground
        description={<Text span>{description}</Text>}
      />
    </Stack>
  );
}
