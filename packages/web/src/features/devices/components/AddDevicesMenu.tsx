import { Button } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy, useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { ActionMenu } from '../../../ui/menu/ActionMenu';
import { MountWhenOpened } from '../../../ui/MountWhenOpened';

// On demand: the import dialogs (file input, result tables) are not part of the list's first download.
const ManualImportDialog = lazy(() => import('./ManualImportDialog').then((m) => ({ default: m.ManualImportDialog })));
const ThirdPartyImportDialog = lazy(() =>
  import('../import/ThirdPartyImportDialog').then((m) => ({ default: m.ThirdPartyImportDialog })),
);

export type AddDevicesMenuProps = {
  zoneId: number;
  /** Opens manual import from outside (the empty state's button). */
  isManualOpen: boolean;
  onManualOpen: (isOpen: boolean) => void;
};

/**
 * The add-devices menu (spec B section 2): manual import (install commands and key) or
 * third-party import (a CSV of hosts from another tool, waiting for their agent).
 */
export function AddDevicesMenu({ zoneId, isManualOpen, onManualOpen }: AddDevicesMenuProps) {
  const [isThirdPartyOpen, setThirdPartyOpen] = useState(false);
  return (
    <>
      <ActionMenu
        target={
          <Button rightSection={<IconChevronDown size={16} aria-hidden="true" />}>
            {CONSOLE_TEXTS.devices.addDevices}
          </Button>
        }
        entries={() => [
          { label: CONSOLE_TEXTS.devices.manualImport, onClick: () => onManualOpen(true) },
          { label: CONSOLE_TEXTS.devices.thirdPartyImport, onClick: () => setThirdPartyOpen(true) },
        ]}
      />
      <MountWhenOpened opened={isManualOpen}>
        <ManualImportDialog opened={isManualOpen} zoneId={zoneId} onClose={() => onManualOpen(false)} />
      </MountWhenOpened>
      <MountWhenOpened opened={isThirdPartyOpen}>
        <ThirdPartyImportDialog
          opened={isThirdPartyOpen}
          zoneId={zoneId}
          onClose={() => setThirdPartyOpen(false)}
          onShowInstall={() => onManualOpen(true)}
        />
      </MountWhenOpened>
    </>
  );
}
