import { z } from 'zod';
import { ZOsFamily } from '../agent/agent-protocol.schema';
import { TEXTS } from '../texts';
import { ZDeviceFilters } from './device-filters.schema';
import { ZAdvancedFilters, ZPatchPatterns, ZSeverityFilter } from './patch-filters.schema';

/**
 * The `configuration` of each policy type, in the family's field names (FIELD-NOTES 3.1,
 * 3.3) with our additions: `reboot_mode` and the required-software installer.
 */

/** Longest notification texts: Windows 125, macOS 70 (the family's limits). */
export const NOTIFICATION_MESSAGE_MAX = 125;
export const NOTIFICATION_MESSAGE_MAC_MAX = 70;
/** Deferral hour options (spec B section 5): 1–24, unique, 1 to 3 of them, default 1, 4, 8. */
export const DEFERRAL_HOURS_MIN = 1;
export const DEFERRAL_HOURS_MAX = 24;
export const DEFERRAL_OPTIONS_MAX = 3;
export const DEFERRAL_HOURS_DEFAULT = [1, 4, 8];
/** Maximum deferrals (spec B section 5): 1–10, default 6. */
export const MAX_DEFERRALS_MIN = 1;
export const MAX_DEFERRALS_MAX = 10;
export const MAX_DEFERRALS_DEFAULT = 6;
/** How long a notice stays up before it times out, in minutes (the family's 15–480, default 15). */
export const NOTICE_TIMEOUT_MIN = 15;
export const NOTICE_TIMEOUT_MAX = 480;
/** Largest worklet code block (256 KiB, as a `run_script` command's script). */
export const WORKLET_CODE_MAX = 256 * 1024;
/** Largest uploaded installer of a required-software policy (512 MiB), enforced by the server on upload. */
export const INSTALLER_MAX_BYTES = 512 * 1024 * 1024;

const message = (max: number) => z.string().max(max, `Messages are at most ${max} characters.`).nullable().optional();
const between = TEXTS.validation.numberBetween;

/** Deferral hour options. */
export const ZDeferralPeriods = z
  .array(
    z
      .number({ error: between(DEFERRAL_HOURS_MIN, DEFERRAL_HOURS_MAX) })
      .int(between(DEFERRAL_HOURS_MIN, DEFERRAL_HOURS_MAX))
      .min(DEFERRAL_HOURS_MIN, between(DEFERRAL_HOURS_MIN, DEFERRAL_HOURS_MAX))
      .max(DEFERRAL_HOURS_MAX, between(DEFERRAL_HOURS_MIN, DEFERRAL_HOURS_MAX)),
  )
  .min(1, TEXTS.validation.atLeastOne)
  .max(DEFERRAL_OPTIONS_MAX, `Choose at most ${DEFERRAL_OPTIONS_MAX} deferral options.`)
  .refine((v) => new Set(v).size === v.length, 'Each deferral option must be different.');

/** Maximum deferrals. */
export const ZMaxDeferrals = z
  .number({ error: between(MAX_DEFERRALS_MIN, MAX_DEFERRALS_MAX) })
  .int(between(MAX_DEFERRALS_MIN, MAX_DEFERRALS_MAX))
  .min(MAX_DEFERRALS_MIN, between(MAX_DEFERRALS_MIN, MAX_DEFERRALS_MAX))
  .max(MAX_DEFERRALS_MAX, between(MAX_DEFERRALS_MIN, MAX_DEFERRALS_MAX));

const ZNoticeTimeout = z
  .number()
  .int()
  .min(NOTICE_TIMEOUT_MIN, between(NOTICE_TIMEOUT_MIN, NOTICE_TIMEOUT_MAX))
  .max(NOTICE_TIMEOUT_MAX, between(NOTICE_TIMEOUT_MIN, NOTICE_TIMEOUT_MAX));

/**
 * After a run: `auto` reboots whenever the run installed something, `when_needed` only when
 * an installed patch (or the OS) asks for it, `notify` never reboots and tells the user a
 * reboot is pending. The family's `auto_reboot` true reads as `when_needed`, false as `notify`.
 */
export const REBOOT_MODES = ['auto', 'when_needed', 'notify'] as const;
export const ZRebootMode = z.enum(REBOOT_MODES);
export type RebootMode = z.infer<typeof ZRebootMode>;

/** The reboot mode of a configuration, whichever of the two fields it was given. */
export function rebootModeOf(config: { reboot_mode?: RebootMode | null; auto_reboot?: boolean | null }): RebootMode {
  return config.reboot_mode ?? (config.auto_reboot ? 'when_needed' : 'notify');
}

/** Reboot notices and their deferral (patch and worklet policies). */
const rebootFields = {
  /** Family flag: reboot after the run (see `reboot_mode`). */
  auto_reboot: z.boolean().optional(),
  /** Reboot behaviour; wins over `auto_reboot` when both are given. */
  reboot_mode: ZRebootMode.optional(),
  /** Notify the user before the run that a reboot will follow. */
  notify_reboot_user: z.boolean().default(false),
  /** Notify after installing that a reboot is pending, letting the user defer it. */
  notify_deferred_reboot_user: z.boolean().nullable().default(false),
  /** Before-reboot message (Windows and Linux), at most 125 characters. */
  custom_notification_reboot_message: message(NOTIFICATION_MESSAGE_MAX),
  /** Before-reboot message on macOS, at most 70 characters. */
  custom_notification_reboot_message_mac: message(NOTIFICATION_MESSAGE_MAC_MAX),
  /** Pending-reboot message, at most 125 characters. */
  custom_pending_reboot_notification_message: message(NOTIFICATION_MESSAGE_MAX),
  /** Pending-reboot message on macOS, at most 70 characters. */
  custom_pending_reboot_notification_message_mac: message(NOTIFICATION_MESSAGE_MAC_MAX),
  /** Whether the user may defer the pending reboot. */
  pending_reboot_deferral_enabled: z.boolean().default(false),
  /** How many times the reboot may be deferred, 1–10, default 6. */
  custom_pending_reboot_notification_max_delays: ZMaxDeferrals.default(MAX_DEFERRALS_DEFAULT),
  /** Reboot deferral hour options, default [1, 4, 8]. */
  custom_pending_reboot_notification_deferment_periods: ZDeferralPeriods.default(DEFERRAL_HOURS_DEFAULT),
  /** Minutes the pending-reboot notice stays up, 15–480, default 15. */
  notify_deferred_reboot_user_message_timeout: ZNoticeTimeout.default(NOTICE_TIMEOUT_MIN),
  /** When the reboot notice times out, apply the longest deferral. */
  notify_deferred_reboot_user_auto_deferral_enabled: z.boolean().default(false),
};

/** Targeting and catch-up (every policy type). */
const commonFields = {
  /** Catch-up: a run missed while a device was offline runs at its next check-in. */
  missed_patch_window: z.boolean().default(false),
  /** Whether `device_filters` narrow the targets. */
  device_filters_enabled: z.boolean().default(false),
  /** Device filters, all of which must hold. */
  device_filters: ZDeviceFilters.default([]),
};

/** Fields every patch configuration shares, whatever it selects. */
const patchFields = {
  ...commonFields,
  ...rebootFields,
  /** Run on the schedule (false: only on demand). */
  auto_patch: z.boolean().default(true),
  /** Include optional Windows updates. */
  include_optional: z.boolean().default(false),
  /** Notify the user before patching (a notice shown 15 minutes ahead). */
  notify_user: z.boolean().default(false),
  /** Before-patching message (Windows and Linux), at most 125 characters. */
  custom_notification_patch_message: message(NOTIFICATION_MESSAGE_MAX),
  /** Before-patching message on macOS, at most 70 characters. */
  custom_notification_patch_message_mac: message(NOTIFICATION_MESSAGE_MAC_MAX),
  /** Whether the user may defer the installation. */
  install_deferral_enabled: z.boolean().default(false),
  /** How many times the installation may be deferred, 1–10, default 6. */
  custom_notification_max_delays: ZMaxDeferrals.default(MAX_DEFERRALS_DEFAULT),
  /** Installation deferral hour options, default [1, 4, 8]. */
  custom_notification_deferment_periods: ZDeferralPeriods.default(DEFERRAL_HOURS_DEFAULT),
  /** Minutes the before-patching notice stays up, 15–480, default 15. */
  notify_user_message_timeout: ZNoticeTimeout.default(NOTICE_TIMEOUT_MIN),
  /** When the patching notice times out, apply the longest deferral. */
  notify_user_auto_deferral_enabled: z.boolean().default(false),
};

const ZPatchAll = z.object({ ...patchFields, patch_rule: z.literal('all') });
const ZPatchManual = z.object({ ...patchFields, patch_rule: z.literal('manual') });
const ZPatchAdvanced = z.object({
  ...patchFields,
  patch_rule: z.literal('advanced'),
  /** Rules; a patch is selected when it meets all of them. */
  advanced_filter: ZAdvancedFilters,
});
const ZPatchFilter = z.discriminatedUnion('filter_type', [
  z.object({
    ...patchFields,
    patch_rule: z.literal('filter'),
    /** Patch only the packages matching one of `filters`. */
    filter_type: z.literal('include'),
    /** Package-name patterns. */
    filters: ZPatchPatterns,
  }),
  z.object({
    ...patchFields,
    patch_rule: z.literal('filter'),
    /** Patch all but the packages matching one of `filters`. */
    filter_type: z.literal('exclude'),
    /** Package-name patterns. */
    filters: ZPatchPatterns,
  }),
  z.object({
    ...patchFields,
    patch_rule: z.literal('filter'),
    /** Patch the patches of the chosen severities. */
    filter_type: z.literal('severity'),
    /** Severities (plus unknown and no_known_cves). */
    severity_filter: ZSeverityFilter,
  }),
]);

/** A patch policy's configuration, discriminated by `patch_rule` (and `filter_type`). */
export const ZPatchConfiguration = z.discriminatedUnion('patch_rule', [
  ZPatchAll,
  ZPatchFilter,
  ZPatchManual,
  ZPatchAdvanced,
]);
export type PatchConfiguration = z.infer<typeof ZPatchConfiguration>;
export type PatchConfigurationInput = z.input<typeof ZPatchConfiguration>;

/** Script languages (spec B section 3). */
export const SCRIPT_LANGUAGES = ['bash', 'powershell'] as const;
export const ZScriptLanguage = z.enum(SCRIPT_LANGUAGES);
export type ScriptLanguage = z.infer<typeof ZScriptLanguage>;

/** The language a family runs worklets in: PowerShell on Windows, Bash elsewhere. */
export function scriptLanguageOf(osFamily: z.infer<typeof ZOsFamily>): ScriptLanguage {
  return osFamily === 'windows' ? 'powershell' : 'bash';
}

/** OS family of a worklet or installer; the family's spelling (Windows, Mac, Linux) is accepted too. */
export const ZPolicyOsFamily = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), ZOsFamily);

const code = z.string().max(WORKLET_CODE_MAX, `Code is at most ${WORKLET_CODE_MAX / 1024} KiB.`);

/**
 * A worklet (`custom`) policy's configuration. Evaluation runs on every scan: exit 0 is
 * compliant, anything else needs remediation; no evaluation code means the device is
 * always compliant and remediation runs only on demand. 'Run now' runs remediation only.
 */
export const ZCustomConfiguration = z
  .object({
    ...commonFields,
    ...rebootFields,
    /** Evaluation code; null or empty: always compliant. */
    evaluation_code: code.nullable().default(null),
    /** Remediation code, required (kept byte for byte: scripts are not trimmed). */
    remediation_code: code.refine((v) => v.trim().length > 0, TEXTS.validation.namedRequired('Remediation code')),
    /** The OS family it runs on (Windows, Mac or Linux). */
    os_family: ZPolicyOsFamily,
    /** bash or powershell; must be the OS family's (PowerShell on Windows, Bash on Linux and macOS). */
    language: ZScriptLanguage.optional(),
    /** Rescan the device before remediating. */
    refresh_before_remediation: z.boolean().default(false),
  })
  .refine((c) => !c.language || c.language === scriptLanguageOf(c.os_family), {
    path: ['language'],
    message: 'Windows worklets run in PowerShell; Linux and macOS worklets run in Bash.',
  });
export type CustomConfiguration = z.infer<typeof ZCustomConfiguration>;

/** An installer uploaded to the server (`POST /api/policies/installers`). */
export const ZInstallerFile = z.object({
  /** Stored file id. */
  id: z.string().min(1).max(100),
  /** File name as uploaded. */
  name: z.string().min(1).max(255),
  /** Size in bytes, at most 512 MiB. */
  size_bytes: z.number().int().min(1).max(INSTALLER_MAX_BYTES),
  /** SHA-256 of the file, hex; the agent checks it after download. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type InstallerFile = z.infer<typeof ZInstallerFile>;

/**
 * A required-software policy's configuration: install the package where it is missing,
 * either through the OS package manager (name and version) or from an uploaded installer
 * with the command that runs it.
 */
export const ZRequiredSoftwareConfiguration = z
  .object({
    ...commonFields,
    /** Package name, as the device's inventory lists it. */
    package_name: z.string().trim().min(1, TEXTS.validation.namedRequired('Package name')).max(300),
    /** Version to install; `latest` for whatever is newest. */
    package_version: z.string().trim().min(1, TEXTS.validation.namedRequired('Package version')).max(200),
    /** The OS family it installs on. */
    os_family: ZPolicyOsFamily,
    /** Install command (the family's `installation_code`); required with an installer. */
    installation_code: code.nullable().default(null),
    /** Uploaded installer, if any. */
    installer: ZInstallerFile.nullable().default(null),
  })
  .refine((c) => !c.installer || Boolean(c.installation_code?.trim()), {
    path: ['installation_code'],
    message: TEXTS.validation.namedRequired('Install command'),
  });
export type RequiredSoftwareConfiguration = z.infer<typeof ZRequiredSoftwareConfiguration>;
