import { z } from 'zod';
import { ZPaging } from '../paging.schema';
import { TEXTS } from '../texts';
import {
  ZCustomConfiguration,
  ZPatchConfiguration,
  ZRequiredSoftwareConfiguration,
} from './policy-configuration.schema';
import { ZPolicySchedule } from './policy-schedule.schema';

/**
 * Payloads of `/api/policies` in the product family's shape (FIELD-NOTES 3.1): a policy
 * is its type, its `configuration`, its schedule fields and its target groups.
 */

/** Policy types (spec B section 3). */
export const POLICY_TYPES = ['patch', 'custom', 'required_software'] as const;
export const ZPolicyType = z.enum(POLICY_TYPES);
export type PolicyType = z.infer<typeof ZPolicyType>;
/** The console's names of the types. */
export const POLICY_TYPE_LABELS: Record<PolicyType, string> = {
  patch: 'Patch Policy',
  custom: 'Worklet Policy',
  required_software: 'Required Software Policy',
};

export const POLICY_STATUSES = ['active', 'inactive'] as const;
export const ZPolicyStatus = z.enum(POLICY_STATUSES);
export type PolicyStatus = z.infer<typeof ZPolicyStatus>;

/**
 * Name and notes limits (the spec leaves the values out; chosen): a name fits one line of
 * the policy list and of a device's policy table at 100 characters; notes, like a group's
 * notes, take 10,000.
 */
export const POLICY_NAME_MAX_LENGTH = 100;
export const POLICY_NOTES_MAX_LENGTH = 10_000;
/** The form's summary message when any field has an error. */
export const POLICY_FORM_SUMMARY = TEXTS.validation.summary;
/** Most groups one policy targets. */
export const POLICY_GROUPS_MAX = 1000;

/** Fields a caller sets on every type. */
const editableFields = {
  /** Name, required, at most 100 characters. */
  name: z
    .string({ error: TEXTS.validation.required })
    .trim()
    .min(1, TEXTS.validation.required)
    .max(POLICY_NAME_MAX_LENGTH, `The name can be at most ${POLICY_NAME_MAX_LENGTH} characters.`),
  /** Notes, at most 10,000 characters. */
  notes: z
    .string()
    .max(POLICY_NOTES_MAX_LENGTH, `Notes can be at most ${POLICY_NOTES_MAX_LENGTH.toLocaleString('en-US')} characters.`)
    .default(''),
  /** Target groups (of the same zone); a policy with none targets no device. */
  server_groups: z.array(z.number().int().positive()).max(POLICY_GROUPS_MAX).default([]),
  /** The zone; when given it must equal `o`. */
  organization_id: z.number().int().positive().optional(),
  /** Active policies run on their schedule; inactive ones do not run. Default active. */
  status: ZPolicyStatus.default('active'),
  /** The worklet-catalogue entry the policy was created from, if any. */
  community_worklet_id: z.number().int().positive().nullable().optional(),
  ...ZPolicySchedule.shape,
};

const ZPatchPolicyBody = z.object({
  ...editableFields,
  policy_type_name: z.literal('patch'),
  configuration: ZPatchConfiguration,
});
const ZCustomPolicyBody = z.object({
  ...editableFields,
  policy_type_name: z.literal('custom'),
  configuration: ZCustomConfiguration,
});
const ZRequiredSoftwarePolicyBody = z.object({
  ...editableFields,
  policy_type_name: z.literal('required_software'),
  configuration: ZRequiredSoftwareConfiguration,
});

/** `POST /api/policies?o=` (Patch/Custom/Required Software Policy.create by type). */
export const ZCreatePolicyBody = z.discriminatedUnion('policy_type_name', [
  ZPatchPolicyBody,
  ZCustomPolicyBody,
  ZRequiredSoftwarePolicyBody,
]);
export type CreatePolicyBody = z.infer<typeof ZCreatePolicyBody>;
export type CreatePolicyInput = z.input<typeof ZCreatePolicyBody>;

/**
 * `PUT /api/policies/{id}?o=`: the whole policy, as the family's PUT takes it; `id`, when
 * given, must equal the path's, and the type cannot change.
 */
export const ZUpdatePolicyBody = z.discriminatedUnion('policy_type_name', [
  ZPatchPolicyBody.extend({ id: z.number().int().positive().optional() }),
  ZCustomPolicyBody.extend({ id: z.number().int().positive().optional() }),
  ZRequiredSoftwarePolicyBody.extend({ id: z.number().int().positive().optional() }),
]);
export type UpdatePolicyBody = z.infer<typeof ZUpdatePolicyBody>;

/** Fields the server adds. */
const storedFields = {
  /** Policy id. */
  id: z.number().int(),
  /** Public identifier (uuid); policy-results pages use it. */
  uuid: z.string(),
  /** The zone. */
  organization_id: z.number().int(),
  /** Creation time (ISO 8601). */
  create_time: z.string(),
  /** Devices it targets now. */
  server_count: z.number().int(),
  /** Next scheduled run (ISO 8601), the earliest over its devices; null when unscheduled or inactive. */
  next_run_time: z.string().nullable(),
  /** Set on a clone until someone saves its configuration. */
  needs_configuration: z.boolean(),
};

/** A policy as the API returns it. */
export const ZPolicy = z.discriminatedUnion('policy_type_name', [
  ZPatchPolicyBody.extend(storedFields),
  ZCustomPolicyBody.extend(storedFields),
  ZRequiredSoftwarePolicyBody.extend(storedFields),
]);
export type Policy = z.infer<typeof ZPolicy>;
export type PatchPolicy = Extract<Policy, { policy_type_name: 'patch' }>;
export type CustomPolicy = Extract<Policy, { policy_type_name: 'custom' }>;
export type RequiredSoftwarePolicy = Extract<Policy, { policy_type_name: 'required_software' }>;

/** `{id}` path parameter of a policy. */
export const ZPolicyIdParams = z.object({
  /** Policy id. */
  id: z.coerce.number().int().positive(),
});
export type PolicyIdParams = z.infer<typeof ZPolicyIdParams>;

/** Fields the policy list sorts by. */
export const POLICY_SORT_FIELDS = ['name', 'policy_type_name', 'status', 'create_time', 'next_run_time'] as const;

/** `GET /api/policies?o=&page=&limit=&sort=&type=&status=&search=`. */
export const ZListPoliciesQuery = z
  .object({
    /** The zone (alias `org`). */
    o: z.coerce.number().int().positive().optional(),
    /** Alias of `o`. */
    org: z.coerce.number().int().positive().optional(),
    ...ZPaging.shape,
    /** `field:asc|desc`. Default `name:asc`. */
    sort: z
      .string()
      .regex(new RegExp(`^(${POLICY_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
      .optional(),
    /** Only this type. */
    type: ZPolicyType.optional(),
    /** Only active or inactive ones. */
    status: ZPolicyStatus.optional(),
    /** Substring of the name. */
    search: z.string().max(200).optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type ListPoliciesQuery = z.infer<typeof ZListPoliciesQuery>;

/** Actions of `POST /api/policies/{id}/action` (the family's PolicyAction). */
export const POLICY_ACTIONS = ['remediateAll', 'remediateServer'] as const;

/**
 * `POST /api/policies/{id}/action?o=`: run the policy now, on all its devices
 * (`remediateAll`) or on chosen ones (`remediateServer` with `serverId`, or our
 * `serverIds` for several). Worklets run remediation only.
 */
export const ZPolicyActionBody = z
  .object({
    /** What to run. */
    action: z.enum(POLICY_ACTIONS, { error: TEXTS.validation.required }),
    /** The device, with `remediateServer`. */
    serverId: z.number().int().positive().optional(),
    /** Several devices, with `remediateServer` (at most 500). */
    serverIds: z.array(z.number().int().positive()).min(1).max(500).optional(),
  })
  .refine((b) => b.action !== 'remediateServer' || b.serverId !== undefined || b.serverIds !== undefined, {
    path: ['serverId'],
    message: 'Choose a device.',
  });
export type PolicyActionBody = z.infer<typeof ZPolicyActionBody>;

/** The devices an action targets: null for all of the policy's devices. */
export function actionDeviceIds(body: PolicyActionBody): number[] | null {
  if (body.action === 'remediateAll') return null;
  return [...new Set([...(body.serverId !== undefined ? [body.serverId] : []), ...(body.serverIds ?? [])])];
}

/**
 * `POST /api/policies/{id}/clone?o=`: copy a policy into this zone or others. The copies
 * start inactive and need configuration; copying files may take up to 10 minutes, so it
 * runs as a job (see ZCloneJob).
 */
export const ZClonePolicyBody = z.object({
  /** Name of the copies; default "Clone of <name>". */
  name: editableFields.name.optional(),
  /** Target zones (uuids, the family's field), 1 to 500; default the policy's own zone. */
  target_zone_ids: z.array(z.uuid()).min(1, TEXTS.validation.atLeastOne).max(500).optional(),
});
export type ClonePolicyBody = z.infer<typeof ZClonePolicyBody>;

/** Statuses of a clone job. */
export const CLONE_JOB_STATUSES = ['queued', 'running', 'completed', 'error'] as const;

/** 202 answer of a clone and `GET /api/policies/clone-jobs/{jobId}`: the job and, when done, the copies. */
export const ZCloneJob = z.object({
  /** Job id. */
  id: z.string(),
  /** Where it is. */
  status: z.enum(CLONE_JOB_STATUSES),
  /** Percent done, 0–100. */
  progress: z.number().min(0).max(100),
  /** Name of the copies. */
  policy_name: z.string(),
  /** Type of the copied policy. */
  policy_type_name: ZPolicyType,
  /** The copies made so far (the family's `data`). */
  data: z.array(
    z.object({
      /** New policy id. */
      policy_id: z.number().int(),
      /** Zone uuid. */
      zone_id: z.string(),
      /** Zone id. */
      org_id: z.number().int(),
    }),
  ),
  /** Why it failed, when it did. */
  error: z.string().nullable(),
});
export type CloneJob = z.infer<typeof ZCloneJob>;
