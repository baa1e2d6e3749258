import { Button, FileInput, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { IconDownload, IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  HOST_IMPORT_MAX_BYTES,
  HOST_IMPORT_TEMPLATE_CSV,
  type HostImportResult,
} from '@patchwell/core/devices/host-imports.schema';
import { failureText } from '../../../api/error-text';
import { CONSOLE_TEXTS } from '../../../texts';
import { notify } from '../../../ui/notify';
import { AwaitingImports } from './AwaitingImports';
import { hostImportKeys, uploadHostsCsv, useAwaitingImports } from './host-imports.api';
import { ImportPreview } from './ImportPreview';
import { IMPORT_TEXTS as T } from './import.texts';

export type ThirdPartyImportDialogProps = {
  opened: boolean;
  zoneId: number;
  onClose: () => void;
  /** Opens manual import (install commands and key) for the awaiting hosts. */
  onShowInstall: () => void;
};

const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(HOST_IMPORT_TEMPLATE_CSV)}`;

/**
 * Third-party import: choose a CSV, see what each row will do (a dry run on the server,
 * nothing written), then import; and the imported hosts still waiting for their agent.
 */
export function ThirdPartyImportDialog({ opened, zoneId, onClose, onShowInstall }: ThirdPartyImportDialogProps) {
  const queryClient = useQueryClient();
  const awaiting = useAwaitingImports(zoneId, opened);
  const [tab, setTab] = useState<string | null>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<HostImportResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [isChecking, setChecking] = useState(false);
  const [isImporting, setImporting] = useState(false);
  // Only the latest chosen file's dry run may fill the preview.
  const checkId = useRef(0);

  const reset = () => {
    checkId.current += 1;
    setFile(null);
    setPreview(null);
    setFileError(null);
    setChecking(false);
  };
  const close = () => {
    reset();
    setTab('upload');
    onClose();
  };

  const onFileChange = async (next: File | null) => {
    reset();
    setFile(next);
    if (!next) return;
    if (next.size > HOST_IMPORT_MAX_BYTES) {
      setFileError(T.tooLarge);
      return;
    }
    const id = checkId.current;
    setChecking(true);
    try {
      const result = await uploadHostsCsv(zoneId, next, true);
      if (id === checkId.current) setPreview(result);
    } catch (error) {
      if (id === checkId.current) setFileError(failureText(error));
    } finally {
      if (id === checkId.current) setChecking(false);
    }
  };

  const onImport = async () => {
    if (!file) return;
    setImporting(true);
    try {
      const result = await uploadHostsCsv(zoneId, file, false);
      notify.success(T.imported(result.summary.imported, result.summary.total - result.summary.imported));
      await queryClient.invalidateQueries({ queryKey: hostImportKeys.all });
      reset();
      setTab('awaiting');
    } catch (error) {
      void notify.apiError(error);
    } finally {
      setImporting(false);
    }
  };

  const newCount = preview?.summary.new ?? 0;
  return (
    <Modal opened={opened} onClose={close} title={T.title} size="xl">
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="upload">{T.tabUpload}</Tabs.Tab>
          <Tabs.Tab value="awaiting">{T.tabAwaiting(awaiting.data?.size)}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="upload">
          <Stack gap="md">
            <Text size="sm">{T.intro}</Text>
            <Text size="sm" c="dimmed">
              {T.columns}
            </Text>
            <Group align="flex-end" wrap="nowrap">
              <FileInput
                style={{ flex: 1 }}
                label={T.file}
                placeholder={T.filePlaceholder}
                accept=".csv,text/csv"
                clearable
                value={file}
                onChange={(next) => void onFileChange(next)}
                error={fileError}
                leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
              />
              <Button
                component="a"
                href={TEMPLATE_HREF}
                download={T.templateFileName}
                variant="default"
                leftSection={<IconDownload size={16} aria-hidden="true" />}
              >
                {T.template}
              </Button>
            </Group>
            {isChecking && (
              <Group gap="xs">
                <Loader size="xs" />
                <Text size="sm">{T.checking}</Text>
              </Group>
            )}
            {preview && <ImportPreview result={preview} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {CONSOLE_TEXTS.common.cancel}
              </Button>
              <Button onClick={() => void onImport()} loading={isImporting} disabled={!preview || newCount === 0}>
                {!preview ? T.submitIdle : newCount === 0 ? T.nothingToImport : T.submit(newCount)}
              </Button>
            </Group>
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="awaiting">
          <AwaitingImports
            zoneId={zoneId}
            awaiting={awaiting}
            onShowInstall={() => {
              close();
              onShowInstall();
            }}
          />
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}
