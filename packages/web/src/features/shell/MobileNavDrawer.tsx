import { Drawer, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { CONSOLE_TEXTS } from '../../texts';
import { isUnder, type NavItem } from './nav-items';

function MobileLinks({ items, onNavigate }: { items: NavItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2}>
      {items.map((item) =>
        item.children ? (
          <MantineNavLink
            key={item.label}
            label={item.label}
            defaultOpened={isUnder(pathname, item)}
            childrenOffset="md"
          >
            {item.children.map((child) => (
              <MantineNavLink
                key={child.label}
                component={Link}
                to={child.to}
                label={child.label}
                active={isUnder(pathname, child)}
                onClick={onNavigate}
              />
            ))}
          </MantineNavLink>
        ) : (
          <MantineNavLink
            key={item.label}
            component={Link}
            to={item.to}
            label={item.label}
            active={isUnder(pathname, item)}
            onClick={onNavigate}
          />
        ),
      )}
    </Stack>
  );
}

/** The top navigation's links in a drawer, below the medium breakpoint (the burger opens it). */
export function MobileNavDrawer({
  opened,
  onClose,
  items,
}: {
  opened: boolean;
  onClose: () => void;
  items: NavItem[];
}) {
  return (
    <Drawer.Root opened={opened} onClose={onClose} size="xs" hiddenFrom="md">
      <Drawer.Overlay />
      <Drawer.Content>
        {/* A div, not Mantine's default <header>: the page already has its banner landmark. */}
        <Drawer.Header component="div">
          <Drawer.Title>{CONSOLE_TEXTS.nav.mobileTitle}</Drawer.Title>
          <Drawer.CloseButton aria-label={CONSOLE_TEXTS.nav.closeMenu} />
        </Drawer.Header>
        <Drawer.Body>
          <nav aria-label={`${CONSOLE_TEXTS.nav.label} (mobile)`}>
            <MobileLinks items={items} onNavigate={onClose} />
          </nav>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}
