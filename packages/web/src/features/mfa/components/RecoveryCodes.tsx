import { Alert, Button, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { CopyValueButton } from '../../../ui/CopyValueButton';

const T = CONSOLE_TEXTS.mfa;

/** Offers the codes as a text file, named after the product. */
function download(codes: string[]) {
  const blob = new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'patchwell-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** The recovery codes, shown this once: copy, download, then done. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  return (
    <Stack gap="sm" aria-label={T.recoveryTitle} role="region">
      <Title order={4} fz="h5">
        {T.recoveryTitle}
      </Title>
      <Alert color="yellow" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
        {T.recoveryIntro}
      </Alert>
      <SimpleGrid cols={2} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {codes.map((c) => (
          <li key={c}>
            <Code data-testid="recovery-code">{c}</Code>
          </li>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <CopyValueButton value={codes.join('\n')} label={T.copyCodes} />
        <Button variant="default" onClick={() => download(codes)}>
          {T.download}
        </Button>
        <Button onClick={onDone}>{doneLabel ?? T.saved}</Button>
      </Group>
      <Text size="xs" c="dimmed">
        {T.recoveryLeft(codes.length)}
      </Text>
    </Stack>
  );
}
