import { Anchor, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from './usePageTitle';

/** An editor page's frame: a link back to its list, the page's title (also the document's), the content. */
export function BackLinkPage({
  title,
  back,
  children,
}: {
  title: string;
  back: { to: string; label: string };
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={back.to} size="sm">
        {back.label}
      </Anchor>
      <Title order={2} fz="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
