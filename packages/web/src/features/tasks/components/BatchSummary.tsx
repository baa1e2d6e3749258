import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { BATCH_ISSUE_TYPES } from '@patchwell/core/remediation/batches.schema';
import { FactTable, type Fact } from '../../../ui/FactTable';
import { formatUtc } from '../../../ui/format-date';
import { TASK_TEXTS as T } from '../tasks.texts';
import { BatchStatusBadge } from './RemediationBadges';

/** What a batch is and what matching found: rows, findings, CVEs, solutions of each kind and potential issues. */
export function BatchSummary({ batch }: { batch: Batch }) {
  const s = batch.statistics;
  const facts: Fact[] = [
    { label: T.csvName, value: batch.report_source },
    { label: T.source, value: T.sources[batch.source] ?? batch.source },
    { label: T.status, value: <BatchStatusBadge status={batch.status} /> },
    { label: T.queuedBy, value: batch.created_by_user.email },
    { label: T.uploaded, value: formatUtc(batch.created_at) },
    { label: T.impactedDevices, value: batch.status === 'building' ? null : batch.impacted_device_count },
  ];
  if (s) {
    const patchNow = s.solutions['patch-now'];
    const worklet = s.solutions['patch-with-worklet'];
    const issues = BATCH_ISSUE_TYPES.map((type) => [type, s.issues[type] ?? 0] as const).filter(([, n]) => n > 0);
    facts.push(
      { label: T.rows, value: s.rows },
      { label: T.findings, value: s.findings },
      { label: T.vulnerabilities, value: s.vulnerabilities },
      {
        label: T.solutionsPatchNow,
        value: patchNow ? T.solutionCounts(patchNow.count, patchNow.device_count, patchNow.vulnerability_count) : 0,
      },
      {
        label: T.solutionsWorklet,
        value: worklet ? T.solutionCounts(worklet.count, worklet.device_count, worklet.vulnerability_count) : 0,
      },
      {
        label: T.issuesCount,
        value: issues.length ? issues.map(([type, n]) => `${T.issueTypes[type] ?? type}: ${n}`).join(', ') : 0,
      },
    );
  }
  if (batch.updated_by_user?.email && (batch.status === 'approved' || batch.status === 'rejected')) {
    facts.push({ label: T.reviewedBy, value: `${batch.updated_by_user.email}, ${formatUtc(batch.updated_at)}` });
  }
  return <FactTable facts={facts} label={T.summary} />;
}
