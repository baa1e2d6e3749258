import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { CopyValueButton } from '../../../ui/CopyValueButton';
import { notify } from '../../../ui/notify';
import { useAccessKey, useRotateAccessKey } from '../../zones/zones.api';

/** The zone's agent access key: shown to admins, copyable, rotatable after a confirmation. */
export function AccessKeyPanel({ zoneId }: { zoneId: number }) {
  const key = useAccessKey(zoneId);
  const rotate = useRotateAccessKey(zoneId);

  const onRotate = () =>
    confirmAction({
      title: CONSOLE_TEXTS.accessKey.rotateTitle,
      message: CONSOLE_TEXTS.accessKey.rotateBody,
      confirmLabel: CONSOLE_TEXTS.accessKey.rotate,
      isDanger: true,
      onConfirm: () => rotate.mutate(undefined, { onSuccess: () => notify.success(CONSOLE_TEXTS.accessKey.rotated) }),
    });

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {CONSOLE_TEXTS.accessKey.description}
      </Text>
      {key.isError && (
        <Alert color="red" role="alert">
          {CONSOLE_TEXTS.accessKey.loadFailed}
        </Alert>
      )}
      {key.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {key.data && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={CONSOLE_TEXTS.accessKey.label}
            value={key.data.access_key}
            readOnly
            ff="monospace"
            style={{ flex: 1 }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyValueButton value={key.data.access_key} label={CONSOLE_TEXTS.accessKey.copy} />
        </Group>
      )}
      <Group>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden="true" />}
          onClick={onRotate}
          loading={rotate.isPending}
          disabled={!key.data}
        >
          {CONSOLE_TEXTS.accessKey.rotate}
        </Button>
      </Group>
    </Stack>
  );
}
