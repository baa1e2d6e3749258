import { z } from 'zod';
import { ZPolicy, ZPolicyStatus, ZPolicyType } from './policies.schema';
import { ZApproval, ZDevicePolicyStatus, ZPolicyDeviceResult, ZPolicyRun } from './policy-runs.schema';

/**
 * Answers of the run, result, preview and approval routes (docs/api/policies-contract.md):
 * core's shapes with what the engine adds, one schema each for the server's responses and
 * the console's parsing.
 */

/** A run's result on one device, with what the engine knows beyond core's shape. */
export const ZPolicyResultDetail = ZPolicyDeviceResult.extend({
  /** The command carrying it out; null while waiting for an offline device, or when nothing was to do. */
  command_id: z.number().int().nullable(),
  /** install_updates, install_package or run_script. */
  command_type: z.string().nullable(),
  /** Why, when no command explains the status (nothing to do, missed, superseded, waiting for approval). */
  message: z.string().nullable(),
  /** When its command was queued. */
  queued_at: z.string().nullable(),
});
export type PolicyResultDetail = z.infer<typeof ZPolicyResultDetail>;
export const ZPolicyResultList = z.object({ data: z.array(ZPolicyResultDetail), size: z.number().int() });

/** A run, with the timezone slot of a scheduled run. */
export const ZPolicyRunDetail = ZPolicyRun.extend({
  /** The schedule slot's timezone (the policy's offset, or the devices' local zone). */
  timezone: z.string().nullable(),
  /** When its commands were queued. */
  queued_at: z.string().nullable(),
  /** Why it failed, when it did without any device (e.g. the policy was deleted). */
  error_message: z.string().nullable(),
});
export type PolicyRunDetail = z.infer<typeof ZPolicyRunDetail>;
export const ZPolicyRunList = z.object({ data: z.array(ZPolicyRunDetail), size: z.number().int() });

/** 202 answer of `POST /api/policies/{id}/action`: the run it created. */
export const ZPolicyActionResult = z.object({ run: ZPolicyRunDetail });

/**
 * A run as a client reads it: the status as any text, so a state the client does not know
 * shows as unrecognized (spec B section 8) instead of failing the page, and an optional
 * error code (the banner's 'Error code: {error_code}').
 */
export const ZPolicyRunDetailLenient = ZPolicyRunDetail.extend({
  status: z.string(),
  /** An error code, when the server gives one. */
  error_code: z.union([z.string(), z.number()]).nullable().optional(),
});
export type PolicyRunDetailLenient = z.infer<typeof ZPolicyRunDetailLenient>;
export const ZPolicyRunListLenient = z.object({ data: z.array(ZPolicyRunDetailLenient), size: z.number().int() });
export const ZPolicyActionResultLenient = z.object({ run: ZPolicyRunDetailLenient });

/** A device's policies (`GET /api/servers/{id}/policies`), with the worklet evaluation's exit code. */
export const ZDevicePolicyDetail = ZDevicePolicyStatus.extend({
  /** Exit code of the last evaluation (worklet policies): 0 compliant. */
  evaluation_exit_code: z.number().int().nullable(),
  /** When the policy last ran on the device. */
  last_run_at: z.string().nullable(),
  result: ZPolicyResultDetail.nullable(),
});
export type DevicePolicyDetail = z.infer<typeof ZDevicePolicyDetail>;
export const ZDevicePolicyList = z.object({ data: z.array(ZDevicePolicyDetail), size: z.number().int() });

/** Patches waiting for approval, per manual-approval policy (`/api/policy-manual-approval`). */
export const ZManualApprovalList = z.object({
  data: z.array(z.object({ policy_id: z.number().int(), policy_name: z.string(), pending: z.array(ZApproval) })),
  size: z.number().int(),
});
export type ManualApprovalList = z.infer<typeof ZManualApprovalList>;

/** A device a draft policy would target (`POST /api/policies/preview`). */
export const ZPreviewDevice = z.object({
  id: z.number().int(),
  name: z.string(),
  display_name: z.string(),
  hostname: z.string(),
  os_family: z.string(),
  os_version: z.string(),
  server_group_id: z.number().int(),
  tags: z.array(z.string()),
  ip_addrs: z.array(z.string()),
  ip_addrs_private: z.array(z.string()),
  connected: z.boolean(),
});
export type PreviewDevice = z.infer<typeof ZPreviewDevice>;
export const ZPreviewList = z.object({ data: z.array(ZPreviewDevice), size: z.number().int() });

/**
 * A policy's devices by their status with it (policy-compliance.ts), counting the devices
 * its groups still hold: the same statuses that decide each device's overall state.
 */
export const ZPolicyComplianceCounts = z.object({
  /** Up to date. */
  compliant: z.number().int(),
  /** Needs remediation. */
  non_compliant: z.number().int(),
  /** Pending. */
  pending: z.number().int(),
});
export type PolicyComplianceCounts = z.infer<typeof ZPolicyComplianceCounts>;

/**
 * A policy as the server answers it (list, read, create, update), with its devices'
 * standing. ZPolicy cannot be the response schema: its OS-family field preprocesses input
 * (accepting "Windows"), and responses are encoded, which a one-way transform refuses; the
 * configuration is core-validated on save.
 */
export const ZPolicyResponse = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  notes: z.string(),
  policy_type_name: ZPolicyType,
  organization_id: z.number().int(),
  status: ZPolicyStatus,
  /** The type's configuration (ZPatchConfiguration, ZCustomConfiguration or ZRequiredSoftwareConfiguration). */
  configuration: z.record(z.string(), z.unknown()),
  schedule_days: z.number().int(),
  schedule_weeks_of_month: z.number().int(),
  schedule_months: z.number().int(),
  schedule_time: z.string(),
  scheduled_timezone: z.string(),
  use_scheduled_timezone: z.boolean(),
  server_groups: z.array(z.number().int()),
  /** The worklet-catalogue entry it was made from (its `legacy_id`), if any. */
  community_worklet_id: z.number().int().nullable(),
  /** That entry's UUID. */
  community_worklet_uuid: z.string().nullable(),
  create_time: z.string(),
  /** Devices in its groups. */
  server_count: z.number().int(),
  /** Its next scheduled run (ISO 8601), the earliest over its timezone slots; null when it does not run by itself. */
  next_run_time: z.string().nullable(),
  /** A clone not saved since. */
  needs_configuration: z.boolean(),
  /** The policy's devices by standing. */
  compliance: ZPolicyComplianceCounts,
});
export type PolicyResponse = z.infer<typeof ZPolicyResponse>;
/** `{ data, size }` of `GET /api/policies`. */
export const ZPolicyResponseList = z.object({ data: z.array(ZPolicyResponse), size: z.number().int() });

/**
 * The same answer as the console parses it: the configuration read by its type's schema
 * (core's ZPolicy), so the editor gets typed fields.
 */
export const ZPolicyWithCompliance = z.intersection(ZPolicy, z.object({ compliance: ZPolicyComplianceCounts }));
export type PolicyWithCompliance = z.infer<typeof ZPolicyWithCompliance>;
export const ZPolicyWithComplianceList = z.object({ data: z.array(ZPolicyWithCompliance), size: z.number().int() });
