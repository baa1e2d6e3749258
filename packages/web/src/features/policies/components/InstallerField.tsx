import { errorMessages } from '@patchwell/core/shell/errors';
import { INSTALLER_MAX_BYTES } from '@patchwell/core/policies/policy-configuration.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Button, FileInput, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconFile, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useWatch, type UseFormSetValue } from 'react-hook-form';
import { ApiError } from '../../../api/errors';
import { formatBytes } from '../../../ui/format-units';
import { deleteInstaller, uploadInstaller } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyControl, PolicyFormValues } from '../policy-form';

type Props = {
  zoneId: number;
  control: PolicyControl;
  setValue: UseFormSetValue<PolicyFormValues>;
};

function failureText(error: unknown): string {
  if (error instanceof ApiError) return errorMessages(error.body) || error.message;
  return TEXTS.generic.unexpected;
}

/**
 * A required-software policy's installer: choosing a file uploads it at once (the server
 * keeps it for the zone), then its name and size show with a remove button. The policy
 * stores the answer as `configuration.installer`.
 */
export function InstallerField({ zoneId, control, setValue }: Props) {
  const installer = useWatch({ control, name: 'configuration.installer' });
  const [isUploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A newer choice wins over an upload still under way.
  const uploadId = useRef(0);

  const onChoose = async (file: File | null) => {
    setError(null);
    if (!file) return;
    if (file.size > INSTALLER_MAX_BYTES) {
      setError(T.installerTooLarge(formatBytes(INSTALLER_MAX_BYTES)));
      return;
    }
    const id = ++uploadId.current;
    setUploading(true);
    try {
      const stored = await uploadInstaller(zoneId, file);
      if (id === uploadId.current) setValue('configuration.installer', stored, { shouldDirty: true });
    } catch (err) {
      if (id === uploadId.current) setError(failureText(err));
    } finally {
      if (id === uploadId.current) setUploading(false);
    }
  };

  const onRemove = () => {
    if (!installer) return;
    setValue('configuration.installer', null, { shouldDirty: true });
    // Frees the file when nothing references it (one just uploaded); the saved policy's own
    // installer answers 409 and stays until the policy is saved without it.
    void deleteInstaller(zoneId, installer.id).catch(() => undefined);
  };

  if (installer) {
    return (
      <Paper withBorder p="sm" maw={560} role="group" aria-label={T.installerUploaded}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconFile size={18} aria-hidden="true" />
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {installer.name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(installer.size_bytes)}
              </Text>
            </Stack>
          </Group>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden="true" />}
            onClick={onRemove}
          >
            {T.installerRemove}
          </Button>
        </Group>
      </Paper>
    );
  }
  return (
    <Stack gap={4}>
      <FileInput
        label={T.installer}
        description={T.installerDescription(formatBytes(INSTALLER_MAX_BYTES))}
        placeholder={T.installerPlaceholder}
        maw={560}
        value={null}
        disabled={isUploading}
        onChange={(file) => void onChoose(file)}
        error={error}
        leftSection={<IconFile size={16} aria-hidden="true" />}
      />
      {isUploading && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">{T.installerUploading}</Text>
        </Group>
      )}
    </Stack>
  );
}
