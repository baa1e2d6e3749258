import { TEXTS } from '@patchwell/core/texts';
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../../app/paths';
import { requestedZoneId, withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { helpLink, useClientConfig } from '../shell/config.api';

/** The 404 page (route name '404'): title, body and ways back (spec A section 2). */
export function NotFoundPage() {
  usePageTitle(CONSOLE_TEXTS.notFound.pageTitle);
  const config = useClientConfig();
  const location = useLocation();
  const zoneId = requestedZoneId(new URLSearchParams(location.search));
  const knowledgeBase = helpLink(config, 'Knowledge Base');
  const external: { label: string; href: string | undefined }[] = [
    { label: CONSOLE_TEXTS.notFound.contactSupport, href: config?.support_url },
    { label: CONSOLE_TEXTS.notFound.documentation, href: config?.docs_url },
    { label: CONSOLE_TEXTS.notFound.knowledgeBase, href: knowledgeBase },
  ];
  const links = external.filter((l): l is { label: string; href: string } => !!l.href);

  return (
    <Stack gap="md" align="center" ta="center" py="xl" data-route-name="404">
      <Title order={1}>{TEXTS.notFound.title}</Title>
      <Text>{TEXTS.notFound.body}</Text>
      <Group gap="lg" justify="center" component="nav" aria-label="Ways back">
        <Anchor component={Link} to={withZone(PATHS.dashboard, zoneId)}>
          {CONSOLE_TEXTS.notFound.backToConsole}
        </Anchor>
        {links.map((link) => (
          <Anchor key={link.label} href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </Anchor>
        ))}
      </Group>
    </Stack>
  );
}
