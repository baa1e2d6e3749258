import { BATCH_ISSUE_TYPES, type BatchIssueType } from '@patchwell/core/remediation/batches.schema';
import { Anchor, NativeSelect, Stack, Table } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { useBatchOutlet } from '../components/BatchFrame';
import { IssueTypeBadge } from '../components/RemediationBadges';
import { useBatchIssues } from '../tasks.api';
import { TASK_TEXTS as T } from '../tasks.texts';

const COLUMNS = [
  { key: 'device', header: T.device },
  { key: 'hostname', header: T.hostname },
  { key: 'ip', header: T.privateIp },
  { key: 'cve', header: T.cve },
  { key: 'issue', header: T.issueType },
  { key: 'line', header: T.line },
] as const;

/**
 * Potential issues of a batch (spec B section 2): scanner rows that did not become a
 * remediation, with the device, hostname, private IP, CVE and issue type, and the file's line.
 */
export function BatchIssuesTab() {
  const { zoneId, batch } = useBatchOutlet();
  const paging = usePaging();
  const [issue, setIssue] = useState<BatchIssueType | ''>('');
  const issues = useBatchIssues(
    zoneId,
    batch.id,
    { ...paging.apiQuery, ...(issue ? { issue } : {}) },
    batch.status !== 'building',
  );
  return (
    <Stack gap="sm">
      <NativeSelect
        label={T.issueType}
        size="sm"
        w={240}
        value={issue}
        onChange={(e) => {
          setIssue(e.currentTarget.value as BatchIssueType | '');
          paging.onPage(1);
        }}
        data={[
          { value: '', label: T.anyIssue },
          ...BATCH_ISSUE_TYPES.map((t) => ({ value: t, label: T.issueTypes[t] ?? t })),
        ]}
      />
      <PagedQueryTable
        label={T.issuesLabel}
        query={batch.status === 'building' ? { data: undefined, isPending: true, isError: false } : issues}
        paging={paging}
        columns={COLUMNS}
        rowKey={(i) => i.id}
        empty={T.noIssues}
        renderCells={(i) => (
          <>
            <Table.Td>
              {i.device !== null ? (
                <Anchor
                  component={Link}
                  to={withZone(pathTo(PATHS.deviceDetail, { deviceId: i.device }), zoneId)}
                  size="sm"
                >
                  {T.deviceId(i.device)}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
            <Table.Td>{i.hostname}</Table.Td>
            <Table.Td>{i.ip_addrs_private.join(', ') || '—'}</Table.Td>
            <Table.Td>{i.patch_id}</Table.Td>
            <Table.Td>
              <IssueTypeBadge issue={i.issue} />
            </Table.Td>
            <Table.Td>{i.line}</Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
