import { Menu, Tooltip, VisuallyHidden } from '@mantine/core';
import { cloneElement } from 'react';
import { Link } from 'react-router';
import { useOpenedOnLoad } from '../LoadOnUse';
import type { ActionMenuProps, MenuAction, MenuEntry } from './menu-entry';

/** The action menu once loaded: opened, since it is mounted by the press that asked for it. */
export function ActionMenuLoaded({ target, entries, position = 'bottom-end', width }: ActionMenuProps) {
  const menu = useOpenedOnLoad<HTMLElement>();
  return (
    <Menu opened={menu.opened} onChange={menu.setOpened} position={position} width={width} shadow="md" withinPortal>
      <Menu.Target>{cloneElement(target, { ref: menu.target })}</Menu.Target>
      <Menu.Dropdown>
        <MenuEntries entries={entries} />
      </Menu.Dropdown>
    </Menu>
  );
}

/** A child of the dropdown, so the entries are built only while the menu is open. */
function MenuEntries({ entries }: Pick<ActionMenuProps, 'entries'>) {
  return entries()
    .filter((entry): entry is MenuEntry => !!entry)
    .map((entry, index) => {
      if ('divider' in entry) return <Menu.Divider key={index} />;
      if ('heading' in entry) return <Menu.Label key={index}>{entry.heading}</Menu.Label>;
      return <ActionItem key={index} action={entry} />;
    });
}

function ActionItem({ action }: { action: MenuAction }) {
  const { label, onClick, to, href, download, newTab, color, leftSection, rightSection, ariaLabel } = action;
  const common = { color, leftSection, rightSection, 'aria-label': ariaLabel, onClick };
  if (action.disabledReason) {
    // aria-disabled, not disabled: a disabled element gets no pointer events, and so no tooltip.
    return (
      <Tooltip label={action.disabledReason} position="left" multiline w={260} withinPortal>
        <Menu.Item
          {...common}
          aria-disabled="true"
          data-disabled
          closeMenuOnClick={false}
          onClick={(event) => event.preventDefault()}
        >
          {label}
          <VisuallyHidden>: {action.disabledReason}</VisuallyHidden>
        </Menu.Item>
      </Tooltip>
    );
  }
  if (to !== undefined)
    return (
      <Menu.Item {...common} component={Link} to={to}>
        {label}
      </Menu.Item>
    );
  if (href !== undefined)
    return (
      <Menu.Item
        {...common}
        component="a"
        href={href}
        download={download}
        {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      >
        {label}
      </Menu.Item>
    );
  return <Menu.Item {...common}>{label}</Menu.Item>;
}
