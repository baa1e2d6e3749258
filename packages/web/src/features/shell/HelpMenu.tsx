import type { ClientConfig } from '@patchwell/core/shell/config.schema';
import { ActionIcon } from '@mantine/core';
import { IconExternalLink, IconHelp } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../texts';
import { ActionMenu } from '../../ui/menu/ActionMenu';

/** The five help links from the client config, each opening in a new tab (spec A section 2). */
export const HELP_LINK_LABELS = ['Knowledge Base', 'Release Notes', 'Community', 'API Reference Guide', 'University'];

export function HelpMenu({ config }: { config: ClientConfig | undefined }) {
  return (
    <ActionMenu
      width={220}
      target={
        <ActionIcon variant="subtle" color="gray.8" size="lg" aria-label={CONSOLE_TEXTS.help.label}>
          <IconHelp size={22} stroke={1.6} aria-hidden="true" />
        </ActionIcon>
      }
      entries={() => [
        { heading: CONSOLE_TEXTS.help.label },
        ...HELP_LINK_LABELS.map((label) => config?.help_links.find((l) => l.label === label))
          .filter((link) => link !== undefined)
          .map((link) => ({
            label: link.label,
            href: link.url,
            newTab: true,
            rightSection: <IconExternalLink size={14} aria-hidden="true" />,
            ariaLabel: `${link.label} ${CONSOLE_TEXTS.help.newTab}`,
          })),
      ]}
    />
  );
}
