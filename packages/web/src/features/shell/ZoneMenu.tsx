import { Box, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy } from 'react';
import { CONSOLE_TEXTS } from '../../texts';
import { LoadOnUse } from '../../ui/LoadOnUse';
import type { ZoneMenuProps } from './ZoneMenuPopover';

const loadPopover = () => import('./ZoneMenuPopover');
const ZoneMenuPopover = lazy(() => loadPopover().then((m) => ({ default: m.ZoneMenuPopover })));

/**
 * The zone switcher (spec A section 2): current zone and role; the user's zones with a
 * case-insensitive search box when there is more than one; 'No results.' and
 * 'Loading Zones...'; 277 px wide, at most 32rem high (32.5rem on small screens). The button
 * alone until it is first used (ui/LoadOnUse.tsx); the popover is ZoneMenuPopover.tsx.
 */
export function ZoneMenu(props: ZoneMenuProps) {
  const { label, sublabel } = props;
  const target = (
    <UnstyledButton
      px="xs"
      py={4}
      maw={220}
      miw={0}
      style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      aria-label={`${CONSOLE_TEXTS.zones.menuLabel(label)}${sublabel ? `, ${sublabel}` : ''}`}
    >
      <Box style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
        <Box style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} truncate>
            {label}
          </Text>
          {sublabel && (
            <Text size="xs" c="dimmed" truncate>
              {sublabel}
            </Text>
          )}
        </Box>
        <IconChevronDown size={14} aria-hidden="true" />
      </Box>
    </UnstyledButton>
  );
  return (
    <LoadOnUse trigger={target} popup="dialog" load={loadPopover}>
      <ZoneMenuPopover {...props} target={target} />
    </LoadOnUse>
  );
}
