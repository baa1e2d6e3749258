import { Alert, Code, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { CONSOLE_TEXTS } from '../../../texts';
import { CopyValueButton } from '../../../ui/CopyValueButton';
import { useAgentInfo } from '../devices.api';

const OS_ORDER = ['linux', 'mac', 'windows'] as const;

/** Manual import: the zone's access key and the install command for each OS, with copy buttons. */
export function ManualImportDialog({
  opened,
  zoneId,
  onClose,
}: {
  opened: boolean;
  zoneId: number;
  onClose: () => void;
}) {
  const info = useAgentInfo(zoneId, opened);
  return (
    <Modal opened={opened} onClose={onClose} title={CONSOLE_TEXTS.devices.manualTitle} size="lg">
      <Stack gap="md">
        <Text size="sm">{CONSOLE_TEXTS.devices.manualIntro}</Text>
        {info.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
        {info.data && (
          <>
            {info.data.server_url_is_loopback && (
              <Alert
                color="yellow"
                title={CONSOLE_TEXTS.devices.loopbackTitle}
                styles={{ message: { color: 'var(--mantine-color-text)' } }}
              >
                {CONSOLE_TEXTS.devices.loopbackBody(info.data.server_url)}
              </Alert>
            )}
            {info.data.access_key ? (
              <Group gap="xs" align="flex-end" wrap="nowrap">
                <TextInput
                  label={CONSOLE_TEXTS.devices.accessKey}
                  value={info.data.access_key}
                  readOnly
                  ff="monospace"
                  style={{ flex: 1 }}
                />
                <CopyValueButton value={info.data.access_key} label={CONSOLE_TEXTS.devices.copyKey} />
              </Group>
            ) : (
              <Alert color="gray">{CONSOLE_TEXTS.devices.keyHidden}</Alert>
            )}
            {OS_ORDER.map((os) => {
              const command = info.data.install[os];
              const label = CONSOLE_TEXTS.os[os] ?? os;
              return (
                <Stack gap={4} key={os}>
                  <Group justify="space-between" wrap="nowrap">
                    <Title order={3} fz="sm">
                      {label}
                    </Title>
                    <CopyValueButton value={command} label={CONSOLE_TEXTS.devices.copyCommand(label)} />
                  </Group>
                  <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {command}
                  </Code>
                </Stack>
              );
            })}
          </>
        )}
      </Stack>
    </Modal>
  );
}
