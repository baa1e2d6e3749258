import type { BatchIssueType, BatchStatus } from '@patchwell/core/remediation/batches.schema';
import { CVE_DEVICE_STATUS_LABELS, type CveDeviceStatus } from '@patchwell/core/remediation/cves.schema';
import type {
  JobStatus,
  RemediationStatus,
  TaskOverallStatus,
  TaskStatus,
} from '@patchwell/core/remediation/tasks.schema';
import { Badge, VisuallyHidden } from '@mantine/core';
import { TASK_TEXTS as T } from '../tasks.texts';
import { Hint } from '../../../ui/Hint';

// Light badges: the theme darkens each colour's text until it reads at 4.5:1 on its tint.
// A status word is short: show it whole rather than cut in a narrow column.
const WHOLE = { label: { overflow: 'visible' } } as const;

function StatusBadge({ color, label, help }: { color: string; label: string; help?: string }) {
  const badge = (
    <Badge color={color} variant="light" styles={WHOLE} tabIndex={help ? 0 : undefined}>
      {label}
      {help && <VisuallyHidden>: {help}</VisuallyHidden>}
    </Badge>
  );
  if (!help) return badge;
  return (
    <Hint label={help} multiline maw={320} withArrow>
      {badge}
    </Hint>
  );
}

const TASK_COLORS: Record<TaskStatus, string> = {
  pending: 'gray',
  in_progress: 'blue',
  executed: 'green',
  canceled: 'dark',
};
export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  return <StatusBadge color={TASK_COLORS[status]} label={T.taskStatus[status] ?? status} />;
}

const OVERALL_COLORS: Record<TaskOverallStatus, string> = {
  in_progress: 'blue',
  executed: 'green',
  partially_executed: 'orange',
  canceled: 'dark',
  unknown: 'gray',
};
/** Remediation overall status (spec B section 4) with what it means. */
export function OverallStatusBadge({ status }: { status: TaskOverallStatus }) {
  return (
    <StatusBadge color={OVERALL_COLORS[status]} label={T.overall[status] ?? status} help={T.overallHelp[status]} />
  );
}

const BATCH_COLORS: Record<BatchStatus, string> = {
  building: 'blue',
  ready: 'yellow',
  error: 'red',
  approved: 'green',
  rejected: 'dark',
};
export function BatchStatusBadge({ status }: { status: BatchStatus }) {
  return <StatusBadge color={BATCH_COLORS[status]} label={T.batchStatus[status] ?? status} />;
}

const JOB_COLORS: Record<JobStatus, string> = {
  success: 'green',
  in_progress: 'blue',
  error: 'red',
  pending: 'gray',
  timed_out: 'orange',
  canceled: 'dark',
};
/** A job's result with the spec's task result labels (success, in progress, failed, pending, timed out). */
export function JobResultBadge({ status }: { status: JobStatus }) {
  return <StatusBadge color={JOB_COLORS[status]} label={T.jobResult[status] ?? status} />;
}

const REMEDIATION_COLORS: Record<RemediationStatus, string> = {
  remediated: 'green',
  remediating: 'blue',
  remediation_failed: 'red',
};
export function RemediationStatusBadge({ status }: { status: RemediationStatus | null }) {
  if (!status) return <>—</>;
  return <StatusBadge color={REMEDIATION_COLORS[status]} label={T.remediation[status] ?? status} />;
}

const ISSUE_COLORS: Record<BatchIssueType, string> = {
  duplicate_host: 'orange',
  unknown_host: 'yellow',
  unknown_cve: 'gray',
  cve_not_applicable: 'teal',
  unsupported_host: 'red',
};
/** A potential issue's type, with why it happened. */
export function IssueTypeBadge({ issue }: { issue: BatchIssueType }) {
  return <StatusBadge color={ISSUE_COLORS[issue]} label={T.issueTypes[issue] ?? issue} help={T.issueHelp[issue]} />;
}

const CVE_DEVICE_COLORS: Record<CveDeviceStatus, string> = {
  open: 'red',
  remediating: 'blue',
  remediated: 'green',
  remediation_failed: 'orange',
  excepted: 'gray',
};
/** Where one device stands on one CVE. */
export function CveDeviceStatusBadge({ status }: { status: CveDeviceStatus }) {
  return <StatusBadge color={CVE_DEVICE_COLORS[status]} label={CVE_DEVICE_STATUS_LABELS[status] ?? status} />;
}

export function OverdueBadge({ label = T.overdue }: { label?: string }) {
  return <StatusBadge color="red" label={label} />;
}
