import { TEXTS } from '@patchwell/core/texts';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { BatchFrame } from '../tasks/components/BatchFrame';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

/**
 * /manage/remediations/{batchId}: a batch of the remediations view with its children,
 * vulnerabilities (index), solutions and unknown devices ('Unknown Hosts').
 */
export function RemediationBatchPage() {
  const { zoneId } = useShell();
  return (
    <BatchFrame
      back={{ to: withZone(PATHS.remediations, zoneId), label: T.back }}
      tabsLabel={T.tabs}
      hasReviewInHeader={false}
      tabs={(batchId) => [
        { label: T.tabVulnerabilities, to: withZone(pathTo(PATHS.remediationBatch, { batchId }), zoneId), end: true },
        { label: T.tabSolutions, to: withZone(pathTo(PATHS.remediationSolutions, { batchId }), zoneId) },
        {
          label: TEXTS.remediation.unknownHosts,
          to: withZone(pathTo(PATHS.remediationUnknownDevices, { batchId }), zoneId),
        },
      ]}
      extra={(batch) =>
        batch.status !== 'building' && (
          <Anchor
            component={Link}
            to={withZone(pathTo(PATHS.taskBatchIssues, { batchId: batch.id }), zoneId)}
            size="sm"
          >
            {T.allIssues}
          </Anchor>
        )
      }
    />
  );
}
