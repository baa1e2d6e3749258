import { z } from 'zod';
import { TEXTS } from '../texts';

/**
 * What a patch policy selects (FIELD-NOTES 3.1): the family's `patch_rule` (+ `filter_type`)
 * and its filters. patch-selection.ts applies them to a device's inventory.
 */

/** The spec's patch modes (B section 3). */
export const PATCH_MODES = [
  'patch_all',
  'patch_all_except',
  'patch_only',
  'patch_manual_approval',
  'patch_by_severity',
  'patch_advanced',
] as const;
export const ZPatchMode = z.enum(PATCH_MODES);
export type PatchMode = z.infer<typeof ZPatchMode>;

/** The family's `patch_rule`. */
export const PATCH_RULES = ['all', 'filter', 'manual', 'advanced'] as const;
export type PatchRule = (typeof PATCH_RULES)[number];
/** The family's `filter_type` of `patch_rule: filter`. */
export const FILTER_TYPES = ['include', 'exclude', 'severity'] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** How each mode is spelled on the wire. */
export const PATCH_MODE_RULES: Record<PatchMode, { patch_rule: PatchRule; filter_type?: FilterType }> = {
  patch_all: { patch_rule: 'all' },
  patch_all_except: { patch_rule: 'filter', filter_type: 'exclude' },
  patch_only: { patch_rule: 'filter', filter_type: 'include' },
  patch_manual_approval: { patch_rule: 'manual' },
  patch_by_severity: { patch_rule: 'filter', filter_type: 'severity' },
  patch_advanced: { patch_rule: 'advanced' },
};

/** The mode of a configuration's `patch_rule` and `filter_type`. */
export function patchModeOf(config: { patch_rule: PatchRule; filter_type?: FilterType | null }): PatchMode {
  switch (config.patch_rule) {
    case 'all':
      return 'patch_all';
    case 'manual':
      return 'patch_manual_approval';
    case 'advanced':
      return 'patch_advanced';
    case 'filter':
      if (config.filter_type === 'exclude') return 'patch_all_except';
      if (config.filter_type === 'severity') return 'patch_by_severity';
      return 'patch_only';
  }
}

/** Severity filter values: the patch severities plus `no_known_cves` (a patch listing no CVE). */
export const SEVERITY_FILTER_VALUES = [
  'none',
  'low',
  'medium',
  'high',
  'critical',
  'unknown',
  'no_known_cves',
] as const;
export const ZSeverityFilterValue = z.enum(SEVERITY_FILTER_VALUES);
export type SeverityFilterValue = z.infer<typeof ZSeverityFilterValue>;
/** Severities that order (none < low < medium < high < critical); unknown and no_known_cves do not. */
export const ORDERED_SEVERITIES = ['none', 'low', 'medium', 'high', 'critical'] as const;

/** Most package-name patterns of an include or exclude filter. */
export const PATCH_PATTERNS_MAX = 200;

/** Package-name patterns (`*` any run, `?` one character; case-insensitive), at least one. */
export const ZPatchPatterns = z
  .array(z.string().trim().min(1, TEXTS.validation.required).max(300))
  .min(1, TEXTS.validation.atLeastOne)
  .max(PATCH_PATTERNS_MAX);

/** Severities of a by-severity filter, at least one, each once. */
export const ZSeverityFilter = z
  .array(ZSeverityFilterValue)
  .min(1, TEXTS.validation.atLeastOne)
  .max(ZSeverityFilterValue.options.length)
  .refine((v) => new Set(v).size === v.length, 'Each severity may be chosen once.');

/** Attributes an advanced rule tests (the spec's "filter attributes"). */
export const ADVANCED_FILTER_ATTRIBUTES = [
  'display-name',
  'severity',
  'patch-source',
  'patch-os',
  'type',
  'patch-days-old',
] as const;
export type AdvancedFilterAttribute = (typeof ADVANCED_FILTER_ATTRIBUTES)[number];

/** Conditions of an advanced rule. */
export const ADVANCED_FILTER_CONDITIONS = [
  'contains',
  'does-not-contain',
  'is',
  'is-not',
  'less-than',
  'less-than-or-equal-to',
  'greater-than',
  'greater-than-or-equal-to',
] as const;
export type AdvancedFilterCondition = (typeof ADVANCED_FILTER_CONDITIONS)[number];

/** Which conditions each attribute takes (the family's published pairing). */
export const ADVANCED_FILTER_ALLOWED: Record<AdvancedFilterAttribute, readonly AdvancedFilterCondition[]> = {
  'display-name': ['contains', 'does-not-contain'],
  severity: ['is', 'is-not', 'less-than-or-equal-to', 'greater-than-or-equal-to'],
  'patch-source': ['is', 'is-not'],
  'patch-os': ['is', 'is-not'],
  type: ['is', 'is-not'],
  'patch-days-old': ['is', 'is-not', 'less-than', 'less-than-or-equal-to', 'greater-than', 'greater-than-or-equal-to'],
};

/**
 * Known patch sources: the family's (windowsupdate, opera, mozilla, adobe, oracle, apple,
 * microsoft) and the agents' (apt, dnf, …). A rule may name any source; these are offered.
 */
export const PATCH_SOURCES = [
  'windowsupdate',
  'opera',
  'mozilla',
  'adobe',
  'oracle',
  'apple',
  'microsoft',
  'apt',
  'dnf',
  'yum',
  'zypper',
  'wua',
  'softwareupdate',
  'winget',
] as const;
/** Patch operating systems. */
export const PATCH_OSES = ['windows', 'mac', 'linux'] as const;
/** Patch types (see patch-selection.ts for how a patch is classified). */
export const PATCH_TYPES = [
  'upgrades',
  'updates',
  'update-rollups',
  'service-packs',
  'security-updates',
  'tools',
  'guidance',
  'feature-packs',
  'developer-kits',
  'definition-updates',
  'critical-updates',
  'connectors',
  'application',
] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

/** Youngest and oldest age (days) a patch-days-old rule takes. */
export const PATCH_DAYS_OLD_MIN = 1;
export const PATCH_DAYS_OLD_MAX = 180;

const CONDITION_MESSAGE = 'This condition does not apply to the chosen attribute.';
const VALUE_MESSAGE = 'Choose a value offered for the chosen attribute.';

/**
 * One advanced rule `{left, condition, right}`; attribute, condition and value are each
 * required (spec B section 5, "Package targeting").
 */
export const ZAdvancedFilter = z
  .object({
    /** The attribute tested. */
    left: z.enum(ADVANCED_FILTER_ATTRIBUTES, { error: TEXTS.validation.required }),
    /** The condition. */
    condition: z.enum(ADVANCED_FILTER_CONDITIONS, { error: TEXTS.validation.required }),
    /** The value: text, a severity, source, OS or type, or a whole number of days 1–180. */
    right: z.union([z.string().trim().min(1, TEXTS.validation.required).max(300), z.number()], {
      error: TEXTS.validation.required,
    }),
  })
  .superRefine((rule, ctx) => {
    if (!ADVANCED_FILTER_ALLOWED[rule.left].includes(rule.condition)) {
      ctx.addIssue({ code: 'custom', path: ['condition'], message: CONDITION_MESSAGE });
    }
    const right = rule.right;
    const bad = (message = VALUE_MESSAGE) => ctx.addIssue({ code: 'custom', path: ['right'], message });
    switch (rule.left) {
      case 'patch-days-old':
        if (typeof right !== 'number' || !Number.isInteger(right) || right < 1 || right > 180) {
          bad(TEXTS.validation.numberBetween(PATCH_DAYS_OLD_MIN, PATCH_DAYS_OLD_MAX));
        }
        return;
      case 'display-name':
      case 'patch-source':
        if (typeof right !== 'string') bad();
        return;
      case 'severity': {
        const ordered =
          rule.condition === 'is' || rule.condition === 'is-not' ? SEVERITY_FILTER_VALUES : ORDERED_SEVERITIES;
        if (typeof right !== 'string' || !(ordered as readonly string[]).includes(right)) bad();
        return;
      }
      case 'patch-os':
        if (typeof right !== 'string' || !(PATCH_OSES as readonly string[]).includes(right)) bad();
        return;
      case 'type':
        if (typeof right !== 'string' || !(PATCH_TYPES as readonly string[]).includes(right)) bad();
        return;
    }
  });
export type AdvancedFilter = z.infer<typeof ZAdvancedFilter>;

/** Most rules of an advanced policy. */
export const ADVANCED_FILTERS_MAX = 50;
/** The rules of an advanced policy: at least one; a patch is selected when it meets every rule. */
export const ZAdvancedFilters = z.array(ZAdvancedFilter).min(1, TEXTS.validation.atLeastOne).max(ADVANCED_FILTERS_MAX);
