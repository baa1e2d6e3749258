import type { CveDetail } from '@patchwell/core/remediation/cves.schema';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { FactTable } from '../../ui/FactTable';
import { formatUtc } from '../../ui/format-date';
import { usePaging } from '../../ui/PagedQueryTable';
import { TablePager } from '../../ui/table/TablePager';
import { usePageTitle } from '../../ui/usePageTitle';
import { SeverityBadge } from '../devices/components/DeviceBadges';
import { OverdueBadge } from '../tasks/components/RemediationBadges';
import { CveDevicesTable } from './components/CveDevicesTable';
import { ExceptionDialog } from './components/ExceptionDialog';
import { ExceptionsTable } from './components/ExceptionsTable';
import { FixHistory } from './components/FixHistory';
import { useCve } from './remediations.api';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

function cveFacts({ cve: c }: CveDetail) {
  return [
    { label: T.severity, value: <SeverityBadge severity={c.severity} /> },
    { label: T.cvss, value: c.cvss },
    { label: T.affected, value: c.affected_device_count },
    { label: T.remediated, value: c.remediated_device_count },
    { label: T.excepted, value: c.excepted_device_count },
    {
      label: T.overdue,
      value: c.overdue_device_count > 0 ? <OverdueBadge label={`${T.overdue}: ${c.overdue_device_count}`} /> : 0,
    },
    { label: T.firstSeenAt, value: formatUtc(c.first_seen_at) },
    { label: T.lastSeenAt, value: formatUtc(c.last_seen_at) },
    { label: T.due, value: c.due_at ? formatUtc(c.due_at) : T.noDeadline },
  ];
}

/**
 * /manage/remediations/cves/{cve}: a CVE that explains itself. For each device, why it
 * matched (the scanner rows, the installed package, the fix and its source), its status,
 * due date and exception; the zone's exceptions (false positive, accepted risk, with reason,
 * expiry and who decided); and the fix status over time.
 */
export function CvePage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const cveId = (useParams().cve ?? '').toUpperCase();
  usePageTitle(cveId);
  const paging = usePaging();
  const detail = useCve(zoneId, cveId, paging.apiQuery);
  const [exceptionFor, setExceptionFor] = useState<{ deviceId?: number } | null>(null);
  const canEdit = can('Task', 'modify');
  const back = (
    <Anchor component={Link} to={withZone(PATHS.remediations, zoneId)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.cveBack}
      </Group>
    </Anchor>
  );
  if (detail.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const d = detail.data;
  if (!d) {
    return (
      <Stack gap="md">
        {back}
        <Alert color="red" role="alert">
          {T.cveNotFound}
        </Alert>
      </Stack>
    );
  }
  const devices = d.devices.map((x) => ({ id: x.device_id, hostname: x.hostname }));
  return (
    <Stack gap="lg">
      {back}
      <Stack gap={4}>
        <Title order={1} fz="h2">
          {d.cve.cve}
        </Title>
        <Text>{d.cve.title}</Text>
      </Stack>
      <FactTable facts={cveFacts(d)} label={T.facts} />
      <Stack gap="sm" component="section" aria-labelledby="cve-devices-title">
        <Title order={2} fz="h4" id="cve-devices-title">
          {T.devicesTitle}
        </Title>
        <CveDevicesTable
          zoneId={zoneId}
          devices={d.devices}
          onAddException={canEdit ? (device) => setExceptionFor({ deviceId: device.device_id }) : undefined}
        />
        {(d.devices_size > paging.limit || paging.page > 1) && (
          <TablePager
            page={paging.page}
            limit={paging.limit}
            total={d.devices_size}
            onPage={paging.onPage}
            onLimit={paging.onLimit}
          />
        )}
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="cve-exceptions-title">
        <Group justify="space-between">
          <Title order={2} fz="h4" id="cve-exceptions-title">
            {T.exceptionsTitle}
          </Title>
          {canEdit && (
            <Button variant="light" onClick={() => setExceptionFor({})}>
              {T.addException}
            </Button>
          )}
        </Group>
        <ExceptionsTable zoneId={zoneId} exceptions={d.exceptions} canEdit={canEdit} />
      </Stack>
      <FixHistory history={d.history} />
      <ExceptionDialog
        opened={exceptionFor !== null}
        zoneId={zoneId}
        cve={d.cve.cve}
        devices={devices}
        deviceId={exceptionFor?.deviceId}
        onClose={() => setExceptionFor(null)}
      />
    </Stack>
  );
}
