import { z } from 'zod';
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
