import { z } from 'zod';
import { ZOsFamily } from '../agent/agent-protocol.schema';
import { ZPaging } from '../paging.schema';
import { ZCveId } from '../remediation/cves.schema';

/**
 * The worklet catalogue (`GET /api/worklet-catalog`, spec B sections 2 and 7): ready-made
 * evaluation and remediation scripts an administrator turns into a custom policy. Pure
 * schemas, safe for the console; the files are read by `worklet-catalog.ts` on the server.
 */

/** Script languages: Windows runs PowerShell, Linux and macOS run bash (FIELD-NOTES 3.3). */
export const WORKLET_LANGUAGES = ['bash', 'powershell'] as const;
export const ZWorkletLanguage = z.enum(WORKLET_LANGUAGES);
export type WorkletLanguage = z.infer<typeof ZWorkletLanguage>;

/** Catalogue categories, the console's filter. */
export const WORKLET_CATEGORIES = [
  'firewall',
  'encryption',
  'access',
  'updates',
  'software',
  'services',
  'maintenance',
] as const;
export const ZWorkletCategory = z.enum(WORKLET_CATEGORIES);
export type WorkletCategory = z.infer<typeof ZWorkletCategory>;

/** The language a device of this family runs worklet code in. */
export function workletLanguageFor(osFamily: z.infer<typeof ZOsFamily>): WorkletLanguage {
  return osFamily === 'windows' ? 'powershell' : 'bash';
}

/**
 * Bash parameters are shell variables (`PACKAGE_NAME`), PowerShell ones are
 * PascalCase variables (`$PackageName`, named without the `$`).
 */
const PARAMETER_NAME = /^(?:[A-Z][A-Z0-9_]*|[A-Z][A-Za-z0-9]*)$/;

/** Longest parameter value; values are single-line literals. */
export const WORKLET_PARAMETER_VALUE_MAX = 500;

/** One value an administrator may set before saving a policy from the entry. */
export const ZWorkletParameterValue = z
  .string()
  .max(WORKLET_PARAMETER_VALUE_MAX)
  .regex(/^[^\r\n\0]*$/, 'A parameter value must be a single line.');

/**
 * A variable assigned at the top of both scripts (`NAME='default'` in bash,
 * `$Name = 'default'` in PowerShell); the console edits that line, as the product
 * family's worklets are edited before a policy is saved.
 */
export const ZWorkletParameter = z.object({
  /** Variable name as written in the scripts, without `$`. */
  name: z.string().regex(PARAMETER_NAME),
  /** What the value means and its unit. */
  description: z.string().min(1).max(500),
  /** Value shipped in the scripts. */
  default: ZWorkletParameterValue,
});
export type WorkletParameter = z.infer<typeof ZWorkletParameter>;

/** The `meta.json` of one catalogue folder; the code comes from the script files beside it. */
export const ZWorkletCatalogMeta = z.strictObject({
  /** Stable slug, equal to the folder name, e.g. `linux-ssh-root-login-disabled`. */
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  /** Stable UUID, for the product family's `/worklet-catalog/{UUID}` links. */
  uuid: z.uuid().optional(),
  /**
   * Stable number: a policy made from the entry records it as `community_worklet_id`, and
   * the family's `/worklet-catalog/{UUID}-{legacy_id}` links name it. Never reused.
   */
  legacy_id: z.number().int().positive(),
  /** Display name. */
  name: z.string().min(1).max(120),
  /** What the evaluation checks and what the remediation changes, including its limits. */
  description: z.string().min(1).max(2000),
  /** Filter category. */
  category: ZWorkletCategory,
  /** The one OS family the scripts are written for. */
  os_family: ZOsFamily,
  /** Script language; must match the OS family. */
  language: ZWorkletLanguage,
  /** Semantic version of the scripts; bump it when either script changes. */
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  /** Written and reviewed by the Patchwell project. */
  verified: z.literal(true),
  /** Variables at the top of both scripts, empty when none. */
  parameters: z.array(ZWorkletParameter).default([]),
  /**
   * CVEs the remediation mitigates on its own, without a patch (a configuration that removes
   * the vulnerable component or path). A scanner batch offers the worklet for these CVEs on
   * devices of its OS family that have no pending patch fixing them. Only where the vendor
   * names this change as a full workaround; omitted for hardening with no CVE of its own.
   */
  cves: z.array(ZCveId).max(100).optional(),
});
export type WorkletCatalogMeta = z.infer<typeof ZWorkletCatalogMeta>;

/**
 * One catalogue entry as the API returns it. Left without refinements so routes can
 * `.omit` the code for summaries; the loader checks that the language fits the OS family.
 */
export const ZWorkletCatalogEntry = ZWorkletCatalogMeta.extend({
  /** Runs on every scan: exit 0 compliant, anything else needs remediation. Never changes the device. */
  evaluation_code: z.string().min(1),
  /** Runs on the policy's schedule or on 'Run now'; exit 0 when it succeeded. */
  remediation_code: z.string().min(1),
});
export type WorkletCatalogEntry = z.infer<typeof ZWorkletCatalogEntry>;

/** `GET /api/worklet-catalog?page=&limit=&os_family=&category=&search=`. */
export const ZWorkletCatalogQuery = z.object({
  ...ZPaging.shape,
  /** Only entries for this OS family. */
  os_family: ZOsFamily.optional(),
  /** Only entries of this category. */
  category: ZWorkletCategory.optional(),
  /** Case-insensitive substring of the name or description. */
  search: z.string().max(200).optional(),
});
export type WorkletCatalogQuery = z.infer<typeof ZWorkletCatalogQuery>;

/** `{ results, size }` of the catalogue list (spec B section 7). */
export const ZWorkletCatalogList = z.object({
  /** The page's entries. */
  results: z.array(ZWorkletCatalogEntry),
  /** Entries matching the filters, over all pages. */
  size: z.number().int(),
});
export type WorkletCatalogList = z.infer<typeof ZWorkletCatalogList>;

/** `{id}` of `GET /api/worklet-catalog/{id}`: the slug or the UUID. */
export const ZWorkletCatalogIdParams = z.object({
  id: z.string().min(1).max(100),
});
export type WorkletCatalogIdParams = z.infer<typeof ZWorkletCatalogIdParams>;
