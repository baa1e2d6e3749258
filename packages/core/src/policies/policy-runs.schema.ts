import { z } from 'zod';
import { ZOsFamily } from '../agent/agent-protocol.schema';
import { ZCompliance } from '../devices/devices.schema';
import { ZPaging } from '../paging.schema';
import { TEXTS } from '../texts';
import { ZPolicyType } from './policies.schema';

/**
 * Runs, per-device results, compliance, approvals and stats of policies (spec B section 4,
 * FIELD-NOTES 3.1–3.5).
 */

/** Per-device, per-policy result statuses (spec B section 4, "Job result"). */
export const POLICY_RESULT_STATUSES = ['success', 'in_progress', 'error', 'pending', 'timed_out', 'canceled'] as const;
export const ZPolicyResultStatus = z.enum(POLICY_RESULT_STATUSES);
export type PolicyResultStatus = z.infer<typeof ZPolicyResultStatus>;
/** How the console words them. */
export const POLICY_RESULT_LABELS: Record<PolicyResultStatus, string> = {
  success: 'success',
  in_progress: 'in progress',
  error: 'error',
  pending: 'pending',
  timed_out: 'timed out',
  canceled: 'canceled',
};

/** Execution (run) states the banner shows (spec B section 4); `unknown` is only shown, never stored. */
export const EXECUTION_STATES = ['created', 'queued', 'running', 'completed', 'error', 'timeout', 'unknown'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];
/** States a stored run can be in. */
export const POLICY_RUN_STATUSES = ['created', 'queued', 'running', 'completed', 'error', 'timeout'] as const;
export const ZPolicyRunStatus = z.enum(POLICY_RUN_STATUSES);
export type PolicyRunStatus = z.infer<typeof ZPolicyRunStatus>;

/** Status indicator kinds (spec B section 4). */
export type IndicatorKind = 'informative' | 'success' | 'in-progress' | 'alert' | 'failed';

/**
 * The execution banner for a run's status: its indicator and text. The spec's texts for
 * error, timeout and unrecognized states; ours for the others. Any status outside the
 * known ones (or `unknown`) shows as unrecognized.
 */
export function executionBanner(
  status: string,
  errorCode?: string | number | null,
): { state: ExecutionState; kind: IndicatorKind; text: string } {
  switch (status) {
    case 'created':
      return { state: status, kind: 'informative', text: 'The execution was created.' };
    case 'queued':
      return { state: status, kind: 'in-progress', text: 'The execution is queued.' };
    case 'running':
      return { state: status, kind: 'in-progress', text: 'The execution is running.' };
    case 'completed':
      return { state: status, kind: 'success', text: 'The execution completed.' };
    case 'error':
      return {
        state: status,
        kind: 'failed',
        text:
          errorCode === null || errorCode === undefined
            ? TEXTS.execution.unknownError
            : TEXTS.execution.errorCode(errorCode),
      };
    case 'timeout':
      return { state: status, kind: 'failed', text: TEXTS.execution.timedOut };
    default:
      return { state: 'unknown', kind: 'alert', text: TEXTS.execution.unrecognized(status) };
  }
}
/** The banner's text when polling the status failed. */
export const EXECUTION_POLLING_FAILED = TEXTS.execution.pollingFailed;

/** What started a run. */
export const RUN_TRIGGERS = ['schedule', 'manual', 'catch_up'] as const;

/** A policy run. */
export const ZPolicyRun = z.object({
  /** Run id. */
  id: z.number().int(),
  /** The policy. */
  policy_id: z.number().int(),
  /** The policy's uuid. */
  policy_uuid: z.string(),
  /** The zone. */
  organization_id: z.number().int(),
  /** Where it is. */
  status: ZPolicyRunStatus,
  /** What started it. */
  trigger: z.enum(RUN_TRIGGERS),
  /** The scheduled time it stands for (ISO 8601); null for a manual run. */
  scheduled_for: z.string().nullable(),
  /** Who started it (manual runs). */
  created_by: z.number().int().nullable(),
  /** Created (ISO 8601). */
  create_time: z.string(),
  /** Finished (ISO 8601), when it did. */
  finished_at: z.string().nullable(),
  /** Devices in the run. */
  device_count: z.number().int(),
  /** Devices per result status (every status, 0 when none). */
  results: z.record(ZPolicyResultStatus, z.number().int()),
});
export type PolicyRun = z.infer<typeof ZPolicyRun>;

/** One device's result of a run. */
export const ZPolicyDeviceResult = z.object({
  /** Result id. */
  id: z.number().int(),
  /** The run. */
  run_id: z.number().int(),
  /** The policy. */
  policy_id: z.number().int(),
  /** The device. */
  server_id: z.number().int(),
  /** The device's display name. */
  server_name: z.string(),
  /** Status. */
  status: ZPolicyResultStatus,
  /** Patches (or package) it installed or tried to. */
  patches: z.array(z.string()),
  /** Exit code of the last command, when any. */
  exit_code: z.number().int().nullable(),
  /** Last 16 KiB of output. */
  stdout_tail: z.string().nullable(),
  /** Last 16 KiB of errors. */
  stderr_tail: z.string().nullable(),
  /** Created (ISO 8601). */
  create_time: z.string(),
  /** Finished (ISO 8601), when it did. */
  finished_at: z.string().nullable(),
  /** The agent only simulated it (no `--allow-changes`): a dry run, which leaves the device pending. */
  simulated: z.boolean(),
});
export type PolicyDeviceResult = z.infer<typeof ZPolicyDeviceResult>;

/**
 * A device's standing with one policy: the family's `policy_status` numbers
 * (0 needs remediation, 1 up to date, 2 pending) beside our compliance words.
 */
export const DEVICE_POLICY_STATUS_CODES = { needs_attention: 0, compliant: 1, pending: 2 } as const;
export const ZDevicePolicyStatus = z.object({
  /** The policy. */
  policy_id: z.number().int(),
  /** Its name. */
  policy_name: z.string(),
  /** Its type. */
  policy_type_name: ZPolicyType,
  /** Compliance of the device with it (policy-compliance.ts). */
  compliance: ZCompliance,
  /** The family's number for it (0 needs remediation, 1 up to date, 2 pending). */
  status: z.number().int(),
  /** Why, one sentence. */
  reason: z.string(),
  /** The latest result, if any. */
  result: ZPolicyDeviceResult.nullable(),
  /** When the device next runs it (ISO 8601); null when unscheduled. */
  next_run_time: z.string().nullable(),
});
export type DevicePolicyStatus = z.infer<typeof ZDevicePolicyStatus>;

/** `GET /api/policystats?o=`: one row per policy (the family's PolicyStats). */
export const ZPolicyStats = z.object({
  /** The policy. */
  policy_id: z.number().int(),
  /** Its name. */
  policy_name: z.string(),
  /** Its type. */
  policy_type_name: ZPolicyType,
  /** The zone. */
  organization_id: z.number().int(),
  /** Devices compliant with it. */
  compliant: z.number().int(),
  /** Devices that need attention. */
  noncompliant: z.number().int(),
  /** Devices pending. */
  pending: z.number().int(),
});
export type PolicyStats = z.infer<typeof ZPolicyStats>;
export const ZPolicyStatsList = z.array(ZPolicyStats);

/** Approval states: `manual_approval` true approved, false rejected, null pending. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** The status word of an approval's `manual_approval`. */
export function approvalStatusOf(manualApproval: boolean | null): ApprovalStatus {
  if (manualApproval === null) return 'pending';
  return manualApproval ? 'approved' : 'rejected';
}

/** A patch waiting for (or given) approval under a manual-approval policy (the family's Approvals). */
export const ZApproval = z.object({
  /** Approval id. */
  id: z.number().int(),
  /** true approved, false rejected, null pending. */
  manual_approval: z.boolean().nullable(),
  /** When it was decided (ISO 8601). */
  manual_approval_time: z.string().nullable(),
  /** pending, approved or rejected. */
  status: z.enum(APPROVAL_STATUSES),
  /** The patch. */
  software: z.object({
    /** Software (package) id. */
    id: z.number().int(),
    /** The version's id. */
    software_version_id: z.number().int(),
    /** Package name. */
    display_name: z.string(),
    /** Version it brings. */
    version: z.string(),
    /** OS family. */
    os_family: ZOsFamily,
    /** CVE ids. */
    cves: z.array(z.string()),
  }),
  /** The policy. */
  policy: z.object({ id: z.number().int(), name: z.string() }),
  /** Devices waiting for it. */
  server_count: z.number().int(),
});
export type Approval = z.infer<typeof ZApproval>;

/** `{ size, results }` of `GET /api/approvals`. */
export const ZApprovalList = z.object({
  /** Total rows. */
  size: z.number().int(),
  /** The page's rows. */
  results: z.array(ZApproval),
});
export type ApprovalList = z.infer<typeof ZApprovalList>;

/** `GET /api/approvals?o=&policy=&status=&page=&limit=`. */
export const ZListApprovalsQuery = z
  .object({
    /** The zone (alias `org`). */
    o: z.coerce.number().int().positive().optional(),
    /** Alias of `o`. */
    org: z.coerce.number().int().positive().optional(),
    ...ZPaging.shape,
    /** Only this policy's. */
    policy: z.coerce.number().int().positive().optional(),
    /** Only pending, approved or rejected ones. Default pending. */
    status: z.enum(APPROVAL_STATUSES).default('pending'),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type ListApprovalsQuery = z.infer<typeof ZListApprovalsQuery>;

/** `PUT /api/approvals/{id}?o=` (Approval.create): approve (true) or reject (false). */
export const ZApprovalDecisionBody = z.object({
  /** true approves, false rejects. */
  manual_approval: z.boolean({ error: TEXTS.validation.required }),
});
export type ApprovalDecisionBody = z.infer<typeof ZApprovalDecisionBody>;
