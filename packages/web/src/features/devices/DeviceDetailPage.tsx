import { Alert, Anchor, Button, Group, Loader, Stack, Tabs, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { DevicePolicies } from '../policies/components/DevicePolicies';
import { POLICY_TEXTS } from '../policies/policies.texts';
import { ObjectActivity } from '../reports/components/ObjectActivity';
import { RemoteControlButton } from '../remote/components/RemoteControlButton';
import { DeviceCommands } from './components/DeviceCommands';
import { DeviceHardware } from './components/DeviceHardware';
import { DeviceLiveStatus } from './components/DeviceLiveStatus';
import { DeviceNetwork } from './components/DeviceNetwork';
import { DeviceOverview } from './components/DeviceOverview';
import { DevicePackages } from './components/DevicePackages';
import { deviceLabel } from './device-label';
import { deviceKeys, queueCommand, removeDevice, useDevice } from './devices.api';
import type { QueueCommandType } from './devices.types';

const T = CONSOLE_TEXTS.device;
const TABS = ['overview', 'hardware', 'network', 'software', 'patches', 'commands', 'policies', 'activity'] as const;
type Tab = (typeof TABS)[number];

/** /devices/{deviceId}: one device's details in tabs, with scan, patch all, reboot and remove. */
export function DeviceDetailPage() {
  usePageTitle(T.title);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const deviceId = Number(useParams().deviceId);
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as Tab) : 'overview';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const device = useDevice(zoneId, Number.isInteger(deviceId) ? deviceId : 0);
  const backTo = withZone(PATHS.devices, zoneId);

  const back = (
    <Anchor component={Link} to={backTo} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.back}
      </Group>
    </Anchor>
  );

  if (device.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (!device.data) {
    return (
      <Stack gap="md">
        {back}
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        <Alert color="red" role="alert">
          {T.notFound}
        </Alert>
      </Stack>
    );
  }

  const d = device.data;
  const name = deviceLabel(d);
  const canManage = can('Endpoint', 'manage');
  // The activity log is a report: its readers see the device's events.
  const canReadActivity = can('Report', 'read');

  const queue = async (type: QueueCommandType, label: string) => {
    try {
      await queueCommand(zoneId, d.id, type);
      notify.success(T.queued(label));
      await queryClient.invalidateQueries({ queryKey: deviceKeys.detail(zoneId, d.id) });
    } catch (error) {
      void notify.apiError(error);
    }
  };
  // Installs everything pending at once: say how much before it starts.
  const onPatchAll = () =>
    confirmAction({
      title: T.patchAllTitle,
      message: T.patchAllBody(name, d.pending_patches, d.needs_reboot),
      confirmLabel: CONSOLE_TEXTS.devices.patchAll,
      onConfirm: () => void queue('InstallAllUpdates', CONSOLE_TEXTS.devices.patchAll),
    });
  const onReboot = () =>
    confirmAction({
      title: T.rebootTitle,
      message: T.rebootBody(name),
      confirmLabel: CONSOLE_TEXTS.devices.reboot,
      isDanger: true,
      onConfirm: () => void queue('Reboot', CONSOLE_TEXTS.devices.reboot),
    });
  const onRemove = () =>
    confirmAction({
      title: T.removeTitle,
      message: T.removeBody(name),
      confirmLabel: CONSOLE_TEXTS.devices.remove,
      isDanger: true,
      onConfirm: () =>
        void removeDevice(zoneId, d.id).then(
          async () => {
            notify.success(T.removed(name));
            await queryClient.invalidateQueries({ queryKey: deviceKeys.all });
            await navigate(backTo);
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-start">
        <Title order={1} fz="h2">
          {name}
        </Title>
        <Group gap="xs">
          <RemoteControlButton device={d} />
          {canManage && (
            <>
              <Button variant="default" onClick={() => void queue('GetOS', CONSOLE_TEXTS.devices.scan)}>
                {CONSOLE_TEXTS.devices.scan}
              </Button>
              <Button variant="default" onClick={onPatchAll}>
                {CONSOLE_TEXTS.devices.patchAll}
              </Button>
              <Button variant="default" color="red" onClick={onReboot}>
                {CONSOLE_TEXTS.devices.reboot}
              </Button>
            </>
          )}
          {can('Endpoint', 'delete') && (
            <Button color="red" variant="light" onClick={onRemove}>
              {CONSOLE_TEXTS.devices.remove}
            </Button>
          )}
        </Group>
      </Group>
      <DeviceLiveStatus commands={d.commands} />
      <Tabs
        value={tab}
        keepMounted={false}
        onChange={(value) =>
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              if (!value || value === 'overview') next.delete('tab');
              else next.set('tab', value);
              return next;
            },
            { replace: true },
          )
        }
      >
        <Tabs.List aria-label={T.tabs}>
          <Tabs.Tab value="overview">{T.overview}</Tabs.Tab>
          <Tabs.Tab value="hardware">{T.hardware}</Tabs.Tab>
          <Tabs.Tab value="network">{T.network}</Tabs.Tab>
          <Tabs.Tab value="software">{T.software}</Tabs.Tab>
          <Tabs.Tab value="patches">{T.patches}</Tabs.Tab>
          <Tabs.Tab value="commands">{T.commands}</Tabs.Tab>
          <Tabs.Tab value="policies">{POLICY_TEXTS.devicePolicies}</Tabs.Tab>
          {canReadActivity && <Tabs.Tab value="activity">{T.activity}</Tabs.Tab>}
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <DeviceOverview zoneId={zoneId} device={d} canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="hardware" pt="md">
          <DeviceHardware system={d.detail} />
        </Tabs.Panel>
        <Tabs.Panel value="network" pt="md">
          <DeviceNetwork system={d.detail} />
        </Tabs.Panel>
        <Tabs.Panel value="software" pt="md">
          <DevicePackages zoneId={zoneId} deviceId={d.id} />
        </Tabs.Panel>
        <Tabs.Panel value="patches" pt="md">
          <DevicePackages zoneId={zoneId} deviceId={d.id} isPatchesView deviceName={name} canInstall={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="commands" pt="md">
          <DeviceCommands zoneId={zoneId} deviceId={d.id} />
        </Tabs.Panel>
        <Tabs.Panel value="policies" pt="md">
          <DevicePolicies zoneId={zoneId} deviceId={d.id} />
        </Tabs.Panel>
        {canReadActivity && (
          <Tabs.Panel value="activity" pt="md">
            <ObjectActivity zoneId={zoneId} object={{ type: 'device', id: d.id }} label={T.activity} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
