import { TEXTS } from '@patchwell/core/texts';
import { Alert, Button, Code, Loader, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { useRemoteTranscript } from '../remote.api';

const T = CONSOLE_TEXTS.remote;

/** After a shell session: what the device's shell printed (the server keeps the first 256 KiB). */
export function RemoteTranscriptButton({ zoneId, sessionId }: { zoneId: number; sessionId: number }) {
  const [isOpen, setOpen] = useState(false);
  const transcript = useRemoteTranscript(zoneId, isOpen ? sessionId : null);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        {T.viewTranscript}
      </Button>
      <Modal opened={isOpen} onClose={() => setOpen(false)} title={T.transcriptTitle} size="xl">
        {transcript.isPending ? (
          <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />
        ) : transcript.isError ? (
          <Alert color="red" role="alert">
            {TEXTS.generic.pageLoadFailed}
          </Alert>
        ) : (
          <>
            {transcript.data.truncated && (
              <Text size="sm" c="dimmed" mb="xs">
                {T.transcriptTruncated}
              </Text>
            )}
            {transcript.data.transcript ? (
              <Code block data-testid="remote-transcript" style={{ whiteSpace: 'pre-wrap', maxHeight: '60vh' }}>
                {readableTranscript(transcript.data.transcript)}
              </Code>
            ) : (
              <Text>{T.transcriptEmpty}</Text>
            )}
          </>
        )}
      </Modal>
    </>
  );
}

/** The terminal's control sequences (colours, cursor moves, bracketed paste) left out, carriage returns too. */
export function readableTranscript(raw: string): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b[()][A-Z0-9]|\x1b[=>]/g, '')
      .replace(/\r/g, '')
  );
}
