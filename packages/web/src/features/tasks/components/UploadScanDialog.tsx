import type { Batch } from '@patchwell/core/remediation/batches.schema';
import {
  BATCH_UPLOAD_MAX_BYTES,
  type ScannerFormat,
  type ScannerSource,
} from '@patchwell/core/remediation/scanners.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Button, FileInput, Group, Loader, Modal, NativeSelect, Progress, Stack, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { failureText } from '../../../api/error-text';
import { isAbortError } from '../../../api/upload';
import { CONSOLE_TEXTS } from '../../../texts';
import { batchKeys, uploadScan, useScannerFormats } from '../tasks.api';
import { TASK_TEXTS, UPLOAD_TEXTS as T } from '../tasks.texts';
import { ExpectedFormat } from './ExpectedFormat';
import { UploadSteps } from './UploadSteps';
import { verifyScanFile } from './verify-scan-file';

export type UploadScanDialogProps = {
  opened: boolean;
  zoneId: number;
  onClose: () => void;
  /** "Finish": go to the new batch's status. */
  onFinish: (batch: Batch) => void;
};

type Phase =
  { step: 'choose' } | { step: 'uploading'; loaded: number; total: number } | { step: 'processing'; batch: Batch };

/**
 * The scanner upload (spec B sections 4, 5 and 7): choose the provider (its expected
 * format is shown), choose a CSV file (checked here: CSV, the file-name rule, the size
 * limit), then the flow: file verified, uploading (progress, cancelable), processing
 * begun, and Finish to view the batch's status. The upload shows its own progress: the
 * page's global loader does not count it.
 */
export function UploadScanDialog({ opened, zoneId, onClose, onFinish }: UploadScanDialogProps) {
  const queryClient = useQueryClient();
  const formats = useScannerFormats(zoneId, opened);
  const [source, setSource] = useState<ScannerSource | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [isCanceled, setCanceled] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'choose' });
  const upload = useRef<AbortController | null>(null);

  // A dialog closed (or a page left) mid-upload stops sending the file.
  useEffect(() => () => upload.current?.abort(), []);

  const format: ScannerFormat | undefined = formats.data?.find((f) => f.name === source);
  const maxBytes = format?.max_bytes ?? BATCH_UPLOAD_MAX_BYTES;
  const isVerified = file !== null && fileError === null;

  const reset = () => {
    upload.current?.abort();
    upload.current = null;
    setSource('');
    setFile(null);
    setFileError(null);
    setServerError(null);
    setCanceled(false);
    setPhase({ step: 'choose' });
  };
  const close = () => {
    reset();
    onClose();
  };

  const onFileChange = (next: File | null) => {
    setFile(next);
    setServerError(null);
    setCanceled(false);
    setFileError(next ? verifyScanFile(next, maxBytes) : null);
  };

  const onUpload = async () => {
    if (!file || !source || !isVerified) return;
    const controller = new AbortController();
    upload.current = controller;
    setServerError(null);
    setCanceled(false);
    setPhase({ step: 'uploading', loaded: 0, total: file.size });
    try {
      const batch = await uploadScan(zoneId, source, file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => setPhase({ step: 'uploading', loaded, total }),
      });
      if (upload.current !== controller) return;
      upload.current = null;
      setPhase({ step: 'processing', batch });
      void queryClient.invalidateQueries({ queryKey: batchKeys.all });
    } catch (error) {
      // Closed or reset meanwhile: that abort is not the user's cancel.
      if (upload.current !== controller) return;
      upload.current = null;
      setPhase({ step: 'choose' });
      if (isAbortError(error)) setCanceled(true);
      else setServerError(failureText(error));
    }
  };

  const onCancelUpload = () => upload.current?.abort();

  const percent = phase.step === 'uploading' && phase.total > 0 ? Math.round((phase.loaded / phase.total) * 100) : 0;
  const mb = Math.round(maxBytes / (1024 * 1024));

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={T.title}
      size="lg"
      closeButtonProps={{ 'aria-label': TASK_TEXTS.closeDialog }}
    >
      <Stack gap="md">
        <UploadSteps phase={phase.step} isVerified={isVerified} />
        {phase.step === 'choose' && (
          <>
            {formats.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
            {formats.isError && (
              <Alert color="red" role="alert">
                {T.formatsFailed}
              </Alert>
            )}
            {formats.data && (
              <NativeSelect
                label={T.provider}
                required
                value={source}
                onChange={(e) => setSource(e.currentTarget.value as ScannerSource | '')}
                data={[
                  { value: '', label: T.chooseProvider },
                  ...formats.data.map((f) => ({ value: f.name, label: f.label })),
                ]}
              />
            )}
            {format && <ExpectedFormat format={format} />}
            <FileInput
              label={T.file}
              description={`${T.limits(format?.max_rows ?? 20_000, mb)} ${TEXTS.uploads.fileNameRule}`}
              accept=".csv,text/csv"
              clearable
              value={file}
              onChange={onFileChange}
              error={fileError}
              leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
            />
            {isVerified && (
              <Text size="sm" role="status">
                {T.verified(file.name)}
              </Text>
            )}
            {isCanceled && (
              <Alert color="gray" role="status">
                {T.canceled}
              </Alert>
            )}
            {serverError && (
              <Alert color="red" role="alert" title={T.failed} style={{ whiteSpace: 'pre-line' }}>
                {serverError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {CONSOLE_TEXTS.common.cancel}
              </Button>
              <Button onClick={() => void onUpload()} disabled={!source || !isVerified}>
                {T.submit}
              </Button>
            </Group>
          </>
        )}
        {phase.step === 'uploading' && (
          <>
            <Text size="sm">{T.uploadingOf(file?.name ?? '')}</Text>
            <Progress value={percent} aria-label={T.progressLabel} animated striped />
            <Text size="sm" c="dimmed" aria-live="polite">
              {T.progress(percent)}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" color="red" onClick={onCancelUpload}>
                {T.cancelUpload}
              </Button>
            </Group>
          </>
        )}
        {phase.step === 'processing' && (
          <>
            <Alert color="blue" role="status">
              {T.processing}
            </Alert>
            <Text size="sm" c="dimmed">
              {T.finishHint}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {T.close}
              </Button>
              <Button
                onClick={() => {
                  const { batch } = phase;
                  reset();
                  onFinish(batch);
                }}
              >
                {T.finish}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
