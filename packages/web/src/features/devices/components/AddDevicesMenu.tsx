import { Button, EmptyState, Menu, Modal } from '@mantine/core';
import { IconChevronDown, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { ManualImportDialog } from './ManualImportDialog';

export type AddDevicesMenuProps = {
  zoneId: number;
  /** Opens manual import from outside (the empty state's button). */
  isManualOpen: boolean;
  onManualOpen: (isOpen: boolean) => void;
};

/** The add-devices menu (spec B section 2): manual import or third-party import. */
export function AddDevicesMenu({ zoneId, isManualOpen, onManualOpen }: AddDevicesMenuProps) {
  const [isThirdPartyOpen, setThirdPartyOpen] = useState(false);
  return (
    <>
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <Button rightSection={<IconChevronDown size={16} aria-hidden="true" />}>
            {CONSOLE_TEXTS.devices.addDevices}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onManualOpen(true)}>{CONSOLE_TEXTS.devices.manualImport}</Menu.Item>
          <Menu.Item onClick={() => setThirdPartyOpen(true)}>{CONSOLE_TEXTS.devices.thirdPartyImport}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ManualImportDialog opened={isManualOpen} zoneId={zoneId} onClose={() => onManualOpen(false)} />
      <Modal
        opened={isThirdPartyOpen}
        onClose={() => setThirdPartyOpen(false)}
        title={CONSOLE_TEXTS.devices.thirdPartyTitle}
        size="md"
      >
        <EmptyState
          py="lg"
          icon={<IconFileImport size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          description={CONSOLE_TEXTS.devices.thirdPartyBody}
        >
          <Button
            variant="default"
            onClick={() => {
              setThirdPartyOpen(false);
              onManualOpen(true);
            }}
          >
            {CONSOLE_TEXTS.devices.manualImport}
          </Button>
        </EmptyState>
      </Modal>
    </>
  );
}
