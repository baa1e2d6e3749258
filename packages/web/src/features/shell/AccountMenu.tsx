import { ActionIcon, Menu } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { CONSOLE_TEXTS } from '../../texts';
import type { NavItem } from './nav-items';

/** The secondary menu: profile, billing, users, keys, security, APNS settings, logout. */
export function AccountMenu({ items, onLogout }: { items: NavItem[]; onLogout: () => void }) {
  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray.8" size="lg" aria-label={CONSOLE_TEXTS.account.label}>
          <IconUserCircle size={24} stroke={1.6} aria-hidden="true" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item key={item.to} component={Link} to={item.to}>
            {item.label}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden="true" />} onClick={onLogout}>
          {CONSOLE_TEXTS.account.logout}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
