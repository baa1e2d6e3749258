import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { SeverityBadge } from '../../devices/components/DeviceBadges';
import { useBatchOutlet } from '../../tasks/components/BatchFrame';
import { useBatchVulnerabilities } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const COLUMNS = [
  { key: 'cve', header: T.cve },
  { key: 'severity', header: T.severity },
  { key: 'title', header: T.titleCol },
  { key: 'devices', header: T.devices },
  { key: 'remediable', header: T.remediable },
  { key: 'solutions', header: T.solutions },
] as const;

const building = { data: undefined, isPending: true, isError: false } as const;

/** The CVEs of a batch: the scanner's severity beside ours, devices affected and how many a solution covers. */
export function VulnerabilitiesTab() {
  const { zoneId, batch } = useBatchOutlet();
  const paging = usePaging();
  const isBuilding = batch.status === 'building';
  const vulnerabilities = useBatchVulnerabilities(zoneId, batch.id, paging.apiQuery, !isBuilding);
  return (
    <Stack gap="sm">
      <PagedQueryTable
        label={T.vulnerabilitiesLabel}
        query={isBuilding ? building : vulnerabilities}
        paging={paging}
        columns={COLUMNS}
        rowKey={(v) => v.cve}
        empty={T.vulnerabilitiesEmpty}
        renderCells={(v) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={withZone(pathTo(PATHS.remediationCve, { cve: v.cve }), zoneId)} size="sm">
                {v.cve}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <SeverityBadge severity={v.severity} />
                <Text size="xs" c="dimmed">
                  {T.scannerSeverity(v.severity_raw, v.cvss)}
                </Text>
              </Group>
            </Table.Td>
            <Table.Td>
              <Text size="sm" lineClamp={2}>
                {v.title}
              </Text>
            </Table.Td>
            <Table.Td>{v.device_count}</Table.Td>
            <Table.Td>{v.remediable_device_count}</Table.Td>
            <Table.Td>{v.solution_ids.length}</Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
