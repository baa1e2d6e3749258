import { ActionIcon } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../texts';
import { ActionMenu } from '../../ui/menu/ActionMenu';
import type { NavItem } from './nav-items';

/** The secondary menu: profile, billing, users, keys, security, APNS settings, logout. */
export function AccountMenu({ items, onLogout }: { items: NavItem[]; onLogout: () => void }) {
  return (
    <ActionMenu
      width={220}
      target={
        <ActionIcon variant="subtle" color="gray.8" size="lg" aria-label={CONSOLE_TEXTS.account.label}>
          <IconUserCircle size={24} stroke={1.6} aria-hidden="true" />
        </ActionIcon>
      }
      entries={() => [
        ...items.map((item) => ({ label: item.label, to: item.to })),
        { divider: true },
        {
          label: CONSOLE_TEXTS.account.logout,
          leftSection: <IconLogout size={16} aria-hidden="true" />,
          onClick: onLogout,
        },
      ]}
    />
  );
}
