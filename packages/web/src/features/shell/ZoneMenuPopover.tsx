import type { ProfileOrg } from '@patchwell/core/auth/profile.schema';
import {
  ZONE_SWITCHER_MAX_HEIGHT_REM,
  ZONE_SWITCHER_MAX_HEIGHT_SMALL_REM,
  ZONE_SWITCHER_WIDTH_PX,
} from '@patchwell/core/constants';
import { TEXTS } from '@patchwell/core/texts';
import { Box, Divider, NavLink, Popover, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { cloneElement, useId, useState, type ReactElement, type ReactNode, type Ref } from 'react';
import { CONSOLE_TEXTS } from '../../texts';
import { useOpenedOnLoad } from '../../ui/LoadOnUse';
import { filterZones } from './zone-filter';

export type ZoneMenuProps = {
  /** First line of the button: the current zone's name (or 'Global view'). */
  label: string;
  /** Second line: 'Role: {name}' or a hint. */
  sublabel?: string;
  /** The zones to list; undefined while they load. Omit the list with `showList={false}`. */
  zones: readonly ProfileOrg[] | undefined;
  showList?: boolean;
  currentZoneId?: number;
  onSelect: (zone: ProfileOrg) => void;
  /** The actions area under the list. */
  actions?: ReactNode;
};

/**
 * The zone switcher once loaded (ZoneMenu.tsx): opened, since the press that loaded it asked for
 * it (useOpenedOnLoad); then it opens and closes itself.
 */
export function ZoneMenuPopover({
  label,
  sublabel,
  zones,
  showList = true,
  currentZoneId,
  onSelect,
  actions,
  target,
}: ZoneMenuProps & { target: ReactElement<{ onClick?: () => void; ref?: Ref<HTMLButtonElement> }> }) {
  const { target: targetRef, opened, setOpened } = useOpenedOnLoad<HTMLButtonElement>();
  const close = () => setOpened(false);
  const toggle = () => setOpened((isOpen) => !isOpen);
  const [query, setQuery] = useState('');
  const isSmall = useMediaQuery('(max-width: 48em)');
  const listId = useId();
  const visible = zones ? filterZones(zones, query) : [];

  const choose = (zone: ProfileOrg) => {
    close();
    setQuery('');
    onSelect(zone);
  };

  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? undefined : close())}
      width={ZONE_SWITCHER_WIDTH_PX}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
    >
      <Popover.Target>{cloneElement(target, { onClick: toggle, ref: targetRef })}</Popover.Target>
      <Popover.Dropdown p={0}>
        <ScrollArea.Autosize mah={`${isSmall ? ZONE_SWITCHER_MAX_HEIGHT_SMALL_REM : ZONE_SWITCHER_MAX_HEIGHT_REM}rem`}>
          <Stack gap={0} p="xs">
            <Box px="xs" py={6}>
              <Text size="sm" fw={600}>
                {label}
              </Text>
              {sublabel && (
                <Text size="xs" c="dimmed">
                  {sublabel}
                </Text>
              )}
            </Box>
            {showList && (
              <>
                <Divider my={4} />
                {zones === undefined ? (
                  <Text size="sm" c="dimmed" px="xs" py={6} role="status">
                    {TEXTS.zones.loading}
                  </Text>
                ) : (
                  <>
                    {zones.length > 1 && (
                      <TextInput
                        size="xs"
                        my={4}
                        placeholder={CONSOLE_TEXTS.zones.search}
                        aria-label={CONSOLE_TEXTS.zones.search}
                        aria-controls={listId}
                        leftSection={<IconSearch size={14} aria-hidden="true" />}
                        value={query}
                        onChange={(e) => setQuery(e.currentTarget.value)}
                        data-autofocus
                      />
                    )}
                    <Box id={listId} role="list" aria-label={CONSOLE_TEXTS.zones.selectZone}>
                      {visible.length === 0 ? (
                        <Text size="sm" c="dimmed" px="xs" py={6} role="status">
                          {TEXTS.zones.noResults}
                        </Text>
                      ) : (
                        visible.map((zone) => (
                          <Box role="listitem" key={zone.id}>
                            <NavLink
                              component="button"
                              type="button"
                              label={zone.name}
                              active={zone.id === currentZoneId}
                              aria-current={zone.id === currentZoneId ? 'true' : undefined}
                              onClick={() => choose(zone)}
                              py={6}
                            />
                          </Box>
                        ))
                      )}
                    </Box>
                  </>
                )}
              </>
            )}
            {actions && (
              <>
                <Divider my={4} />
                <Box onClick={close}>{actions}</Box>
              </>
            )}
          </Stack>
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
