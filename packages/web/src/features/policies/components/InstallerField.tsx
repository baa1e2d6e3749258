import { INSTALLER_MAX_BYTES, type InstallerFile } from '@patchwell/core/policies/policy-configuration.schema';
import { Button, FileInput, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconFile, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { failureText } from '../../../api/error-text';
import { formatBytes } from '../../../ui/format-units';
import { deleteInstaller, uploadInstaller } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';

type Props = {
  zoneId: number;
  /** The stored installer, or null before one is uploaded. */
  value: InstallerFile | null;
  onChange: (installer: InstallerFile | null) => void;
};

/**
 * A required-software policy's installer: choosing a file uploads it at once (the server
 * keeps it for the zone), then its name and size show with a remove button. The policy
 * stores the answer as `configuration.installer` (the caller binds `value`/`onChange` to it).
 */
export function InstallerField({ zoneId, value: installer, onChange }: Props) {
  const [isUploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onChoose = async (file: File | null) => {
    setError(null);
    if (!file) return;
    if (file.size > INSTALLER_MAX_BYTES) {
      setError(T.installerTooLarge(formatBytes(INSTALLER_MAX_BYTES)));
      return;
    }
    // The file field is disabled while an upload is under way, so no other choice can overlap it.
    setUploading(true);
    try {
      onChange(await uploadInstaller(zoneId, file));
    } catch (err) {
      setError(failureText(err));
    } finally {
      setUploading(false);
    }
  };

  const onRemove = () => {
    if (!installer) return;
    onChange(null);
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
