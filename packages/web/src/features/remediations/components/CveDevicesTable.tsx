import { CVE_EXCEPTION_KIND_LABELS, type CveDevice } from '@patchwell/core/remediation/cves.schema';
import { Anchor, Button, Group, List, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { formatUtc } from '../../../ui/format-date';
import { CveDeviceStatusBadge, OverdueBadge } from '../../tasks/components/RemediationBadges';
import { TASK_TEXTS } from '../../tasks/tasks.texts';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

/** Why the device matched: each scanner row that named it (source, file, line, the host as scanned and how it matched). */
function Findings({ device }: { device: CveDevice }) {
  return (
    <List size="xs" spacing={4} listStyleType="none" p={0}>
      {device.findings.map((f) => (
        <List.Item key={`${f.batch_id}:${f.line}`}>
          <Text size="xs" fw={500}>
            {T.scannerRow(TASK_TEXTS.sources[f.source] ?? f.source, f.file_name, f.line)}
          </Text>
          <Text size="xs" c="dimmed">
            {T.scannedHost(f.scanned_host, T.matchedBy[f.matched_by] ?? f.matched_by)}
          </Text>
          <Text size="xs" c="dimmed">
            {T.scannerSeverity(f.severity_raw, f.cvss)} · {formatUtc(f.seen_at)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

function Fix({ device }: { device: CveDevice }) {
  return (
    <Stack gap={2}>
      <Text size="xs">
        {device.installed ? T.installed(device.installed.name, device.installed.version) : T.notInstalled}
      </Text>
      <Text size="xs" fw={500}>
        {!device.fix
          ? T.noFix
          : device.fix.kind === 'patch'
            ? T.fixPatch(device.fix.name, device.fix.version, device.fix.source)
            : T.fixWorklet(device.fix.name, device.fix.source)}
      </Text>
    </Stack>
  );
}

export type CveDevicesTableProps = {
  zoneId: number;
  devices: readonly CveDevice[];
  /** Offers "Add exception" per device when given (Task.modify). */
  onAddException?: (device: CveDevice) => void;
};

/** The devices a CVE affects (or affected), each with why it matched, what is installed, what fixes it, and its status. */
export function CveDevicesTable({ zoneId, devices, onAddException }: CveDevicesTableProps) {
  if (devices.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {T.noDevices}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={1080}>
      <Table withTableBorder verticalSpacing="sm" aria-label={T.devicesLabel}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{T.device}</Table.Th>
            <Table.Th scope="col">{T.status}</Table.Th>
            <Table.Th scope="col">{T.why}</Table.Th>
            <Table.Th scope="col">{T.fix}</Table.Th>
            <Table.Th scope="col">{T.dueCol}</Table.Th>
            <Table.Th scope="col">{T.exceptionCol}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {devices.map((d) => (
            <Table.Tr key={d.device_id}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={withZone(pathTo(PATHS.deviceDetail, { deviceId: d.device_id }), zoneId)}
                  size="sm"
                >
                  {d.hostname}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <CveDeviceStatusBadge status={d.status} />
                  {d.overdue && <OverdueBadge />}
                  {d.remediated_at && (
                    <Text size="xs" c="dimmed">
                      {T.remediatedAt(formatUtc(d.remediated_at))}
                    </Text>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Findings device={d} />
              </Table.Td>
              <Table.Td>
                <Fix device={d} />
              </Table.Td>
              <Table.Td>{d.due_at ? formatUtc(d.due_at) : T.noDeadline}</Table.Td>
              <Table.Td>
                {d.exception ? (
                  <Stack gap={2}>
                    <Text size="xs" fw={500}>
                      {CVE_EXCEPTION_KIND_LABELS[d.exception.kind] ?? d.exception.kind}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {T.expires}: {d.exception.expires_at ? formatUtc(d.exception.expires_at) : T.never}
                    </Text>
                  </Stack>
                ) : onAddException && d.status !== 'remediated' ? (
                  <Group>
                    <Button
                      size="xs"
                      variant="subtle"
                      onClick={() => onAddException(d)}
                      aria-label={T.markExceptionFor(d.hostname)}
                    >
                      {T.markException}
                    </Button>
                  </Group>
                ) : (
                  '—'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
