import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Code, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { canFor, canSeeApns } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { CopyValueButton } from '../../ui/CopyValueButton';
import { usePageTitle } from '../../ui/usePageTitle';
import { useAgentInfo } from '../devices/devices.api';
import { MANAGE_TEXTS as T } from './manage.texts';

/**
 * /manage/get-started-mac-os: how to bring macOS devices into the zone — the agent's
 * install command for macOS from `GET /api/info`, the zone's APNS certificate (for those
 * who may set it), then a patch policy for them.
 */
export function GetStartedMacOsPage() {
  usePageTitle(T.macTitle);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const info = useAgentInfo(zoneId, true);
  const command = info.data?.install.mac;
  return (
    <Stack gap="md" maw={880}>
      <Title order={1} fz="h2">
        {T.macTitle}
      </Title>
      <Text>{T.macIntro}</Text>
      <List type="ordered" spacing="md">
        <List.Item>
          <Stack gap="xs">
            <Text fw={600}>{T.macStep1}</Text>
            <Text size="sm">{T.macStep1Body}</Text>
            {info.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
            {info.isError && <Alert color="red">{TEXTS.generic.unableToLoad}</Alert>}
            {command && (
              <Stack gap={4}>
                <Group justify="flex-end">
                  <CopyValueButton value={command} label={T.macCopy} />
                </Group>
                <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} aria-label={T.macCommand}>
                  {command}
                </Code>
              </Stack>
            )}
            {info.data && !info.data.access_key && (
              <Text size="sm" c="dimmed">
                {T.macKeyHidden}
              </Text>
            )}
          </Stack>
        </List.Item>
        <List.Item>
          <Stack gap="xs">
            <Text fw={600}>{T.macStep2}</Text>
            <Text size="sm">{T.macStep2Body}</Text>
          </Stack>
        </List.Item>
        <List.Item>
          <Stack gap="xs">
            <Text fw={600}>{T.macStep3}</Text>
            <Text size="sm">
              {T.macStep3Body}{' '}
              <Anchor component={Link} to={withZone(PATHS.devices, zoneId, { os_family: 'mac' })}>
                {T.macDevicesLink}
              </Anchor>
            </Text>
          </Stack>
        </List.Item>
        {canSeeApns(profile, zoneId) && (
          <List.Item>
            <Stack gap="xs">
              <Text fw={600}>{T.macApnsStep}</Text>
              <Text size="sm">
                {T.macApnsBody}{' '}
                <Anchor component={Link} to={withZone(PATHS.apnsSettings, zoneId)}>
                  {T.macApnsLink}
                </Anchor>
              </Text>
            </Stack>
          </List.Item>
        )}
        {can('PatchPolicy', 'create') && (
          <List.Item>
            <Stack gap="xs">
              <Text fw={600}>{T.macStep4}</Text>
              <Text size="sm">
                {T.macStep4Body}{' '}
                <Anchor component={Link} to={withZone(PATHS.policyCreate, zoneId, { type: 'patch' })}>
                  {T.macPolicyLink}
                </Anchor>
              </Text>
            </Stack>
          </List.Item>
        )}
      </List>
    </Stack>
  );
}
