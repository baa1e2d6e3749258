import type { RemoteSessionKind } from '@patchwell/core/remote/remote-sessions.schema';
import { Alert, Anchor, Box, Button, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { Link, useLoaderData, useParams } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import type { ShellContext } from '../../app/session';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { deviceLabel } from '../devices/device-label';
import { useDevice } from '../devices/devices.api';
import { RemoteTranscriptButton } from './components/RemoteTranscriptButton';
import { remoteControlAction } from './remote-access';
import { useRemoteSettings } from './remote.api';
import { isLiveStatus } from './remote-status';
import { useRemoteSession } from './useRemoteSession';
import { VncCredentialsForm } from './components/VncCredentialsForm';

const T = CONSOLE_TEXTS.remote;

/** Below this width the page stacks its controls (spec B section 9). */
export const NARROW_QUERY = '(max-width: 499.98px)';

/**
 * /devices/{deviceId}/remote-control (spec B section 2, decision 0016): the device's screen
 * through noVNC or, when the zone allows it, a shell through xterm.js, in the plain layout.
 * The route's loader already made sure of the flag and tier 3 (else 404).
 */
export function RemoteControlPage() {
  usePageTitle(T.title);
  const { profile, zone, zoneId = 0 } = useLoaderData() as ShellContext;
  const deviceId = Number(useParams().deviceId);
  const device = useDevice(zoneId, Number.isInteger(deviceId) ? deviceId : 0);
  const settings = useRemoteSettings(zoneId);
  const target = useRef<HTMLDivElement>(null);
  const session = useRemoteSession(zoneId, deviceId, target);
  const [kind, setKind] = useState<RemoteSessionKind>('control');
  const isNarrow = useMediaQuery(NARROW_QUERY) ?? false;

  const back = (
    <Anchor component={Link} to={withZone(pathTo(PATHS.deviceDetail, { deviceId }), zoneId)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.backToDevice}
      </Group>
    </Anchor>
  );
  if (device.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (!device.data) {
    return (
      <Stack gap="md">
        <Title order={1} fz="h2">
          {T.title}
        </Title>
        <Alert color="red" role="alert">
          {CONSOLE_TEXTS.device.notFound}
        </Alert>
      </Stack>
    );
  }

  const name = deviceLabel(device.data);
  const action = remoteControlAction(profile, zone, device.data);
  const disabledReason = action.isVisible ? action.disabledReason : null;
  const isShellOn = settings.data?.shell_enabled ?? false;
  const chosen: RemoteSessionKind = isShellOn ? kind : 'control';
  const isLive = isLiveStatus(session.status);
  const statusText = session.status ? T.status[session.status] : T.idle;
  const ended = !isLive && session.sessionId !== null;

  const controls = (
    <>
      {/* While a session is open its kind is fixed: said as text (a disabled control's grey fails contrast). */}
      {isLive ? (
        <Text fw={500}>
          {T.kindLabel}: {session.kind === 'shell' ? T.shell : T.screen}
        </Text>
      ) : (
        isShellOn && (
          <SegmentedControl
            aria-label={T.kindLabel}
            value={chosen}
            onChange={(value) => setKind(value as RemoteSessionKind)}
            fullWidth={isNarrow}
            data={[
              { value: 'control', label: T.screen },
              { value: 'shell', label: T.shell },
            ]}
          />
        )
      )}
      {isLive ? (
        <Button
          variant="default"
          onClick={session.disconnect}
          disabled={session.status === 'disconnecting'}
          fullWidth={isNarrow}
        >
          {T.disconnect}
        </Button>
      ) : (
        <Button onClick={() => session.connect(chosen)} disabled={!!disabledReason} fullWidth={isNarrow}>
          {T.connect}
        </Button>
      )}
      {ended && session.kind === 'shell' && <RemoteTranscriptButton zoneId={zoneId} sessionId={session.sessionId!} />}
    </>
  );

  return (
    <Stack gap="md" data-remote-layout={isNarrow ? 'narrow' : 'wide'}>
      {back}
      <Title order={1} fz="h2">
        {T.heading(name)}
      </Title>
      {isNarrow ? (
        <Stack gap="xs" data-testid="remote-controls">
          {controls}
        </Stack>
      ) : (
        <Group gap="sm" data-testid="remote-controls">
          {controls}
        </Group>
      )}
      {disabledReason && (
        <Alert color="yellow" role="note">
          {disabledReason}
        </Alert>
      )}
      <Text role="status" aria-live="polite" data-status={session.status ?? 'idle'}>
        {T.statusLabel}: {statusText}
      </Text>
      {session.message && (
        <Alert color="red" role="alert">
          {session.message}
        </Alert>
      )}
      {session.credentials && <VncCredentialsForm request={session.credentials} />}
      <Box
        ref={target}
        role="region"
        aria-label={session.kind === 'shell' ? T.terminalLabel(name) : T.screenLabel(name)}
        data-kind={session.kind ?? 'none'}
        bg={session.kind === 'shell' ? 'dark.8' : 'gray.1'}
        style={{
          width: '100%',
          height: isNarrow ? '60dvh' : '75dvh',
          overflow: 'auto',
          display: session.kind ? 'block' : 'none',
        }}
      />
    </Stack>
  );
}
