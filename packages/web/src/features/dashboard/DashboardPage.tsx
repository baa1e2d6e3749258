import { Button, Card, EmptyState, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { usePageTitle } from '../../ui/usePageTitle';
import { useDashboard } from './dashboard.api';

const T = CONSOLE_TEXTS.dashboard;

type Bar = { label: string; value: number; color: string; to?: string };

/** One card of labelled bars, each a share of `total`. */
function BarsCard({ title, bars, total }: { title: string; bars: Bar[]; total: number }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {bars.map((b) => (
          <Stack gap={4} key={b.label}>
            <Group justify="space-between">
              {b.to ? (
                <Text component={Link} to={b.to} size="sm" c="blue.8">
                  {b.label}
                </Text>
              ) : (
                <Text size="sm">{b.label}</Text>
              )}
              <Text size="sm" fw={700}>
                {b.value}
              </Text>
            </Group>
            <Progress
              value={total > 0 ? (b.value / total) * 100 : 0}
              color={b.color}
              aria-label={`${title}: ${b.label}`}
            />
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

function Stat({ label, value, to }: { label: string; value: number; to: string }) {
  return (
    <Card withBorder padding="lg" radius="md" component={Link} to={to}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="h2" fw={700}>
        {value}
      </Text>
    </Card>
  );
}

/** /dashboard: the zone's devices by status, OS and compliance, and its pending patches. */
export function DashboardPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const dashboard = useDashboard(zoneId);
  const devicesWith = (extra: Record<string, string> = {}) => withZone(PATHS.devices, zoneId, extra);
  const data = dashboard.data;

  return (
    <Stack gap="lg">
      <Title order={1} fz="h2">
        {T.title}
      </Title>
      {dashboard.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
      {data && data.devices.total === 0 && (
        <EmptyState
          py="xl"
          icon={<IconDeviceDesktop size={32} stroke={1.5} aria-hidden="true" />}
          withIndicatorBackground
          description={T.noDevices}
        >
          <Button component={Link} to={devicesWith()}>
            {T.addDevices}
          </Button>
        </EmptyState>
      )}
      {data && data.devices.total > 0 && (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Stat label={T.total} value={data.devices.total} to={devicesWith()} />
            <Stat label={T.online} value={data.devices.online} to={devicesWith({ status: 'online' })} />
            <Stat label={T.offline} value={data.devices.offline} to={devicesWith({ status: 'offline' })} />
            <Stat label={T.needsReboot} value={data.devices.needs_reboot} to={devicesWith({ needs_reboot: 'true' })} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <BarsCard
              title={T.byOs}
              total={data.devices.total}
              bars={data.by_os.map((o) => ({
                label: CONSOLE_TEXTS.os[o.os_family] ?? o.os_family,
                value: o.count,
                color: 'blue',
                to: devicesWith({ os_family: o.os_family }),
              }))}
            />
            <BarsCard
              title={T.compliance}
              total={data.devices.total}
              bars={[
                { key: 'compliant', color: 'green' },
                { key: 'pending', color: 'yellow' },
                { key: 'needs_attention', color: 'red' },
              ].map(({ key, color }) => ({
                label: CONSOLE_TEXTS.compliance[key] ?? key,
                value: data.compliance[key as keyof typeof data.compliance],
                color,
                to: devicesWith({ compliance: key }),
              }))}
            />
            <BarsCard
              title={T.patches}
              total={data.patches.pending}
              bars={[
                { label: T.pending, value: data.patches.pending, color: 'gray' },
                { label: T.critical, value: data.patches.critical, color: 'red' },
                { label: T.high, value: data.patches.high, color: 'orange' },
              ]}
            />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
