import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { ActionIcon, Menu } from '@mantine/core';
import { IconExternalLink, IconHelp } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../texts';

/** The five help links from the client config, each opening in a new tab (spec A section 2). */
export const HELP_LINK_LABELS = ['Knowledge Base', 'Release Notes', 'Community', 'API Reference Guide', 'University'];

export function HelpMenu({ config }: { config: ClientConfig | undefined }) {
  const links = HELP_LINK_LABELS.map((label) => config?.help_links.find((l) => l.label === label)).filter(
    (l): l is { label: string; url: string } => !!l,
  );
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray.8" size="lg" aria-label={CONSOLE_TEXTS.help.label}>
          <IconHelp size={22} stroke={1.6} aria-hidden="true" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{CONSOLE_TEXTS.help.label}</Menu.Label>
        {links.map((link) => (
          <Menu.Item
            key={link.label}
            component="a"
            href={link.url}
            target="_blank"
            rel="noopener noreferrer"
            rightSection={<IconExternalLink size={14} aria-hidden="true" />}
            aria-label={`${link.label} ${CONSOLE_TEXTS.help.newTab}`}
          >
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
