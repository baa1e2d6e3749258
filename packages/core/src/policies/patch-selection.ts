import type { InventoryPatch, InventorySoftware, OsFamily } from '../agent/agent-protocol.schema';
import {
  ORDERED_SEVERITIES,
  type AdvancedFilter,
  type PatchType,
  type SeverityFilterValue,
} from './patch-filters.schema';
import type { PatchConfiguration, RequiredSoftwareConfiguration } from './policy-configuration.schema';

/**
 * Which of a device's available patches a patch policy installs. Pure: the engine calls it
 * per device with that device's inventory at run time.
 */

/** The patch fields selection reads (an inventory patch, before or after defaults). */
export type SelectablePatch = Pick<InventoryPatch, 'name' | 'version' | 'severity'> &
  Partial<Pick<InventoryPatch, 'cves' | 'kb' | 'source' | 'published_at' | 'current_version' | 'reboot_required'>>;

/** What selection needs to know besides the patches. */
export type SelectionContext = {
  /** The device's OS family (for patch-os rules and type classification). */
  osFamily: OsFamily;
  /** Approved patches of a manual-approval policy, by approvalKey, name or KB id. */
  approved?: ReadonlySet<string>;
  /** The clock, for patch-days-old. */
  now: Date;
};

const DAY_MS = 86_400_000;

/**
 * Case-insensitive glob match: `*` any run of characters, `?` exactly one, everything else
 * literal. Two-pointer matching that only ever backtracks to the last `*`: at worst
 * pattern × text steps, where a regular expression with many `.*` can blow up.
 */
export function globMatch(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let starP = -1;
  let starT = 0;
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === t[ti])) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === '*') {
      starP = pi++;
      starT = ti;
    } else if (starP >= 0) {
      pi = starP + 1;
      ti = ++starT;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === '*') pi++;
  return pi === p.length;
}

/** Whether a package-name pattern names a patch (its name, or its KB id). */
export function patternMatches(pattern: string, patch: SelectablePatch): boolean {
  return globMatch(pattern, patch.name) || (patch.kb ? globMatch(pattern, patch.kb) : false);
}

/** The key an approval is stored under: one version of one package. */
export function approvalKey(patch: Pick<SelectablePatch, 'name' | 'version'>): string {
  return `${patch.name}@${patch.version}`;
}

function hasNoCves(patch: SelectablePatch): boolean {
  return (patch.cves ?? []).length === 0;
}

/** Severity filter: the patch's severity is chosen, or `no_known_cves` is and it lists no CVE. */
export function severityMatches(patch: SelectablePatch, filter: readonly SeverityFilterValue[]): boolean {
  return filter.includes(patch.severity) || (filter.includes('no_known_cves') && hasNoCves(patch));
}

/** Sources that are the OS vendor's own update channel (their patches are not "application"). */
const OS_UPDATE_SOURCES = new Set(['wua', 'windowsupdate', 'microsoft', 'softwareupdate', 'apple']);
/** Aliases between the family's source names and the agents'. */
const SOURCE_ALIASES: Record<string, string> = { windowsupdate: 'wua', apple: 'softwareupdate' };
const canonicalSource = (s: string) => SOURCE_ALIASES[s.toLowerCase()] ?? s.toLowerCase();

/** Name patterns of the update classes (first match wins), as Windows Update names them. */
const NAME_CLASSES: readonly [RegExp, PatchType][] = [
  [/definition update|security intelligence update/i, 'definition-updates'],
  [/feature update|\bupgrade to\b/i, 'upgrades'],
  [/service pack/i, 'service-packs'],
  [/cumulative update|update rollup|monthly rollup/i, 'update-rollups'],
  [/feature pack/i, 'feature-packs'],
  [/developer kit|\bsdk\b/i, 'developer-kits'],
  [/\bconnector\b/i, 'connectors'],
  [/\bguidance\b/i, 'guidance'],
  [/\btools?\b/i, 'tools'],
];

/**
 * The types a patch counts as (a patch may be several): one class from its name
 * (definition-updates, upgrades, service-packs, update-rollups, feature-packs,
 * developer-kits, connectors, guidance, tools; else `updates`), plus `security-updates`
 * when it fixes any CVE, `critical-updates` when its severity is critical, and
 * `application` when it comes from outside the OS vendor's channel (no KB id and a source
 * other than Windows Update or Apple's softwareupdate: third-party and Linux packages).
 */
export function patchTypes(patch: SelectablePatch): Set<PatchType> {
  const types = new Set<PatchType>();
  types.add(NAME_CLASSES.find(([re]) => re.test(patch.name))?.[1] ?? 'updates');
  if (!hasNoCves(patch)) types.add('security-updates');
  if (patch.severity === 'critical') types.add('critical-updates');
  if (!patch.kb && !(patch.source && OS_UPDATE_SOURCES.has(patch.source.toLowerCase()))) types.add('application');
  return types;
}

/** Whole days since the patch was published; null when unknown. */
export function patchAgeDays(patch: SelectablePatch, now: Date): number | null {
  if (!patch.published_at) return null;
  const published = Date.parse(patch.published_at);
  if (Number.isNaN(published)) return null;
  return Math.floor((now.getTime() - published) / DAY_MS);
}

const severityRank = (s: string) => (ORDERED_SEVERITIES as readonly string[]).indexOf(s);

function compare(condition: AdvancedFilter['condition'], a: number, b: number): boolean {
  switch (condition) {
    case 'is':
      return a === b;
    case 'is-not':
      return a !== b;
    case 'less-than':
      return a < b;
    case 'less-than-or-equal-to':
      return a <= b;
    case 'greater-than':
      return a > b;
    case 'greater-than-or-equal-to':
      return a >= b;
    default:
      return false;
  }
}

/**
 * Whether a patch meets one advanced rule. A rule on a value the patch lacks (no
 * publication date, no source, an unordered severity under an ordering condition) is not
 * met, except for is-not on a missing source, which holds.
 */
export function advancedRuleMatches(rule: AdvancedFilter, patch: SelectablePatch, ctx: SelectionContext): boolean {
  const right = rule.right;
  const negate = rule.condition === 'is-not' || rule.condition === 'does-not-contain';
  let hit: boolean;
  switch (rule.left) {
    case 'display-name':
      hit = patch.name.toLowerCase().includes(String(right).toLowerCase());
      break;
    case 'severity': {
      if (rule.condition === 'is' || rule.condition === 'is-not') {
        hit = right === 'no_known_cves' ? hasNoCves(patch) : patch.severity === right;
        break;
      }
      const have = severityRank(patch.severity);
      const want = severityRank(String(right));
      return have >= 0 && want >= 0 && compare(rule.condition, have, want);
    }
    case 'patch-source':
      hit = patch.source ? canonicalSource(patch.source) === canonicalSource(String(right)) : false;
      break;
    case 'patch-os':
      hit = ctx.osFamily === right;
      break;
    case 'type':
      hit = patchTypes(patch).has(right as PatchType);
      break;
    case 'patch-days-old': {
      const age = patchAgeDays(patch, ctx.now);
      return age !== null && typeof right === 'number' && compare(rule.condition, age, right);
    }
  }
  return negate ? !hit : hit;
}

/**
 * The patches a policy configuration selects from a device's available patches, in
 * inventory order:
 * - all: every patch;
 * - filter/include (patch only): those matching any pattern;
 * - filter/exclude (patch all except): those matching no pattern;
 * - filter/severity: those of a chosen severity (no_known_cves: listing no CVE);
 * - manual: those approved (by approvalKey, name or KB id);
 * - advanced: those meeting every rule (AND, as the family's example "severity is critical"
 *   and "patch-os is windows" reads).
 */
export function selectPatches<P extends SelectablePatch>(
  config: PatchConfiguration,
  patches: readonly P[],
  ctx: SelectionContext,
): P[] {
  switch (config.patch_rule) {
    case 'all':
      return [...patches];
    case 'filter':
      switch (config.filter_type) {
        case 'include':
          return patches.filter((p) => config.filters.some((f) => patternMatches(f, p)));
        case 'exclude':
          return patches.filter((p) => !config.filters.some((f) => patternMatches(f, p)));
        case 'severity':
          return patches.filter((p) => severityMatches(p, config.severity_filter));
      }
      break;
    case 'manual': {
      const approved = ctx.approved ?? new Set<string>();
      return patches.filter(
        (p) => approved.has(approvalKey(p)) || approved.has(p.name) || (p.kb ? approved.has(p.kb) : false),
      );
    }
    case 'advanced':
      return patches.filter((p) => config.advanced_filter.every((r) => advancedRuleMatches(r, p, ctx)));
  }
  return [];
}

/**
 * Whether a required-software policy must install on a device: no installed package has
 * its name (case-insensitive), or, unless the version is `latest`, none has its version.
 */
export function needsRequiredSoftware(
  config: Pick<RequiredSoftwareConfiguration, 'package_name' | 'package_version'>,
  installed: readonly Pick<InventorySoftware, 'name' | 'version'>[],
): boolean {
  const name = config.package_name.toLowerCase();
  const same = installed.filter((s) => s.name.toLowerCase() === name);
  if (same.length === 0) return true;
  if (config.package_version.toLowerCase() === 'latest') return false;
  return !same.some((s) => s.version === config.package_version);
}
