import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATCH_SEVERITIES } from '../agent/agent-protocol.schema';
import { SEVERITY_FILTER_VALUES, type AdvancedFilter, type SeverityFilterValue } from './patch-filters.schema';
import { ZPatchConfiguration, type PatchConfigurationInput } from './policy-configuration.schema';
import {
  advancedRuleMatches,
  approvalKey,
  globMatch,
  needsRequiredSoftware,
  patchTypes,
  selectPatches,
  type SelectablePatch,
  type SelectionContext,
} from './patch-selection';

const NOW = new Date('2026-11-21T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000 - 3_600_000).toISOString();

/** A Windows device's available patches. */
const INVENTORY: SelectablePatch[] = [
  {
    name: 'Google Chrome',
    version: '121.0',
    severity: 'high',
    cves: ['CVE-2026-0001'],
    source: 'winget',
    published_at: daysAgo(10),
  },
  {
    name: 'Mozilla Firefox',
    version: '125.0',
    severity: 'medium',
    cves: ['CVE-2026-0002'],
    source: 'mozilla',
    published_at: daysAgo(40),
  },
  {
    name: '2026-11 Cumulative Update for Windows 11 (KB5070001)',
    version: '26100.2001',
    severity: 'critical',
    cves: ['CVE-2026-0003', 'CVE-2026-0004'],
    kb: 'KB5070001',
    source: 'wua',
    published_at: daysAgo(5),
    reboot_required: true,
  },
  {
    name: 'Security Intelligence Update for Microsoft Defender Antivirus (KB2267602)',
    version: '1.421.1',
    severity: 'none',
    cves: [],
    kb: 'KB2267602',
    source: 'wua',
    published_at: daysAgo(1),
  },
  { name: '7-Zip', version: '24.08', severity: 'low', cves: [], source: 'winget', published_at: daysAgo(200) },
  { name: 'Adobe Acrobat Reader', version: '24.4', severity: 'unknown', cves: [], source: 'adobe', published_at: null },
  {
    name: 'Windows Malicious Software Removal Tool x64 (KB890830)',
    version: '5.130',
    severity: 'low',
    cves: [],
    kb: 'KB890830',
    source: 'wua',
    published_at: daysAgo(20),
  },
  {
    name: 'Chrome Remote Desktop Host',
    version: '130.0',
    severity: 'medium',
    cves: ['CVE-2026-0005'],
    source: 'winget',
    published_at: daysAgo(20),
  },
];
const CTX: SelectionContext = { osFamily: 'windows', now: NOW };

const cfg = (c: PatchConfigurationInput) => ZPatchConfiguration.parse(c);
const names = (c: PatchConfigurationInput, ctx: SelectionContext = CTX) =>
  selectPatches(cfg(c), INVENTORY, ctx).map((p) => p.name);
const advanced = (...rules: AdvancedFilter[]) => names({ patch_rule: 'advanced', advanced_filter: rules });

describe('selectPatches on a known inventory', () => {
  it('patch_all selects everything', () => {
    expect(names({ patch_rule: 'all' })).toEqual(INVENTORY.map((p) => p.name));
  });

  it('patch_only selects the names (or KB ids) matching a pattern, case-insensitively', () => {
    expect(names({ patch_rule: 'filter', filter_type: 'include', filters: ['*chrome*'] })).toEqual([
      'Google Chrome',
      'Chrome Remote Desktop Host',
    ]);
    expect(names({ patch_rule: 'filter', filter_type: 'include', filters: ['KB89083?', '7-zip'] })).toEqual([
      '7-Zip',
      'Windows Malicious Software Removal Tool x64 (KB890830)',
    ]);
    expect(names({ patch_rule: 'filter', filter_type: 'include', filters: ['Chrome'] })).toEqual([]);
  });

  it('patch_all_except leaves out the matching ones', () => {
    expect(names({ patch_rule: 'filter', filter_type: 'exclude', filters: ['*Chrome*', '*(KB*)'] })).toEqual([
      'Mozilla Firefox',
      '7-Zip',
      'Adobe Acrobat Reader',
    ]);
  });

  it('patch_by_severity selects the chosen severities, unknown and no_known_cves included', () => {
    expect(names({ patch_rule: 'filter', filter_type: 'severity', severity_filter: ['critical', 'high'] })).toEqual([
      'Google Chrome',
      '2026-11 Cumulative Update for Windows 11 (KB5070001)',
    ]);
    expect(names({ patch_rule: 'filter', filter_type: 'severity', severity_filter: ['unknown'] })).toEqual([
      'Adobe Acrobat Reader',
    ]);
    expect(names({ patch_rule: 'filter', filter_type: 'severity', severity_filter: ['no_known_cves'] })).toEqual([
      'Security Intelligence Update for Microsoft Defender Antivirus (KB2267602)',
      '7-Zip',
      'Adobe Acrobat Reader',
      'Windows Malicious Software Removal Tool x64 (KB890830)',
    ]);
  });

  it('patch_manual_approval selects only approved patches (by version, name or KB id)', () => {
    expect(names({ patch_rule: 'manual' })).toEqual([]);
    const approved = new Set([approvalKey({ name: 'Google Chrome', version: '121.0' }), '7-Zip', 'KB890830']);
    expect(names({ patch_rule: 'manual' }, { ...CTX, approved })).toEqual([
      'Google Chrome',
      '7-Zip',
      'Windows Malicious Software Removal Tool x64 (KB890830)',
    ]);
    const otherVersion = new Set([approvalKey({ name: 'Google Chrome', version: '120.0' })]);
    expect(names({ patch_rule: 'manual' }, { ...CTX, approved: otherVersion })).toEqual([]);
  });

  it('patch_advanced selects the patches meeting every rule', () => {
    expect(
      advanced(
        { left: 'severity', condition: 'is', right: 'critical' },
        { left: 'patch-os', condition: 'is', right: 'windows' },
      ),
    ).toEqual(['2026-11 Cumulative Update for Windows 11 (KB5070001)']);
    expect(
      advanced(
        { left: 'severity', condition: 'greater-than-or-equal-to', right: 'medium' },
        { left: 'display-name', condition: 'does-not-contain', right: 'remote' },
      ),
    ).toEqual(['Google Chrome', 'Mozilla Firefox', '2026-11 Cumulative Update for Windows 11 (KB5070001)']);
    expect(advanced({ left: 'patch-os', condition: 'is', right: 'linux' })).toEqual([]);
  });

  it('patch_advanced reads the age in whole days; an unknown date meets no age rule', () => {
    expect(advanced({ left: 'patch-days-old', condition: 'greater-than-or-equal-to', right: 20 })).toEqual([
      'Mozilla Firefox',
      '7-Zip',
      'Windows Malicious Software Removal Tool x64 (KB890830)',
      'Chrome Remote Desktop Host',
    ]);
    expect(advanced({ left: 'patch-days-old', condition: 'less-than', right: 5 })).toEqual([
      'Security Intelligence Update for Microsoft Defender Antivirus (KB2267602)',
    ]);
    expect(advanced({ left: 'patch-days-old', condition: 'is', right: 5 })).toEqual([
      '2026-11 Cumulative Update for Windows 11 (KB5070001)',
    ]);
  });

  it('patch_advanced matches sources with the family aliases (windowsupdate is wua)', () => {
    expect(advanced({ left: 'patch-source', condition: 'is', right: 'windowsupdate' })).toHaveLength(3);
    expect(advanced({ left: 'patch-source', condition: 'is', right: 'mozilla' })).toEqual(['Mozilla Firefox']);
  });

  it('patch_advanced classifies types', () => {
    expect(advanced({ left: 'type', condition: 'is', right: 'update-rollups' })).toEqual([
      '2026-11 Cumulative Update for Windows 11 (KB5070001)',
    ]);
    expect(advanced({ left: 'type', condition: 'is', right: 'definition-updates' })).toEqual([
      'Security Intelligence Update for Microsoft Defender Antivirus (KB2267602)',
    ]);
    expect(advanced({ left: 'type', condition: 'is', right: 'tools' })).toEqual([
      'Windows Malicious Software Removal Tool x64 (KB890830)',
    ]);
    expect(advanced({ left: 'type', condition: 'is', right: 'security-updates' })).toEqual([
      'Google Chrome',
      'Mozilla Firefox',
      '2026-11 Cumulative Update for Windows 11 (KB5070001)',
      'Chrome Remote Desktop Host',
    ]);
    expect(advanced({ left: 'type', condition: 'is', right: 'application' })).toEqual([
      'Google Chrome',
      'Mozilla Firefox',
      '7-Zip',
      'Adobe Acrobat Reader',
      'Chrome Remote Desktop Host',
    ]);
    expect([...patchTypes(INVENTORY[4]!)]).toEqual(['updates', 'application']);
  });
});

describe('globMatch', () => {
  it('treats * and ? as wildcards and everything else literally', () => {
    expect(globMatch('*Chrome*', 'Google Chrome')).toBe(true);
    expect(globMatch('c?rl', 'curl')).toBe(true);
    expect(globMatch('lib*.so', 'libssl.so')).toBe(true);
    expect(globMatch('a.c', 'abc')).toBe(false);
    expect(globMatch('(x)+', '(x)+')).toBe(true);
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('?', '')).toBe(false);
  });

  it('agrees with a regular-expression reference (property)', () => {
    const chars = fc.constantFrom('a', 'B', 'b', '.', '*', '?');
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'B', '.'), maxLength: 10 }),
        (pattern, text) => {
          const re = new RegExp(
            `^${[...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c === '.' ? '\\.' : c)).join('')}$`,
            'is',
          );
          expect(globMatch(pattern, text)).toBe(re.test(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('stays fast on patterns that make regular expressions backtrack', () => {
    expect(globMatch('*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(300))).toBe(false);
  });
});

// ---- Properties over random inventories ----

const arbPatch: fc.Arbitrary<SelectablePatch> = fc.record({
  name: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'K', ' '), minLength: 1, maxLength: 6 }),
  version: fc.constantFrom('1', '2'),
  severity: fc.constantFrom(...PATCH_SEVERITIES),
  cves: fc.array(fc.constantFrom('CVE-1', 'CVE-2'), { maxLength: 2 }),
  kb: fc.option(fc.constantFrom('KB1', 'KB2'), { nil: null }),
  source: fc.option(fc.constantFrom('wua', 'apt', 'winget', 'mozilla'), { nil: null }),
  published_at: fc.option(fc.integer({ min: 0, max: 300 }).map(daysAgo), { nil: null }),
});
const arbInventory = fc.array(arbPatch, { maxLength: 15 });
const arbPatterns = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '*', '?'), minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 3,
});
const arbSeverities = fc.uniqueArray(fc.constantFrom(...SEVERITY_FILTER_VALUES), { minLength: 1 });
const arbRule: fc.Arbitrary<AdvancedFilter> = fc.oneof(
  fc.record({
    left: fc.constant('display-name' as const),
    condition: fc.constantFrom('contains' as const, 'does-not-contain' as const),
    right: fc.constantFrom('a', 'b', 'K'),
  }),
  fc.record({
    left: fc.constant('severity' as const),
    condition: fc.constantFrom('is' as const, 'is-not' as const),
    right: fc.constantFrom(...SEVERITY_FILTER_VALUES),
  }),
  fc.record({
    left: fc.constant('type' as const),
    condition: fc.constantFrom('is' as const, 'is-not' as const),
    right: fc.constantFrom('security-updates', 'application', 'updates', 'critical-updates'),
  }),
  fc.record({
    left: fc.constant('patch-days-old' as const),
    condition: fc.constantFrom('less-than' as const, 'greater-than-or-equal-to' as const),
    right: fc.integer({ min: 1, max: 180 }),
  }),
);
const arbConfig: fc.Arbitrary<PatchConfigurationInput> = fc.oneof(
  arbPatterns.map((filters) => ({ patch_rule: 'filter' as const, filter_type: 'include' as const, filters })),
  arbPatterns.map((filters) => ({ patch_rule: 'filter' as const, filter_type: 'exclude' as const, filters })),
  arbSeverities.map((severity_filter) => ({
    patch_rule: 'filter' as const,
    filter_type: 'severity' as const,
    severity_filter,
  })),
  fc.constant({ patch_rule: 'manual' as const }),
  fc
    .array(arbRule, { minLength: 1, maxLength: 3 })
    .map((advanced_filter) => ({ patch_rule: 'advanced' as const, advanced_filter })),
);
const arbCtx = fc.record({
  osFamily: fc.constantFrom('windows' as const, 'linux' as const, 'mac' as const),
  approved: fc.uniqueArray(fc.constantFrom('a', 'b', 'KB1', 'a@1', 'b@2')).map((v) => new Set(v)),
  now: fc.constant(NOW),
});

describe('selectPatches properties', () => {
  it('selects a subset of what patch_all selects, in inventory order', () => {
    fc.assert(
      fc.property(arbConfig, arbInventory, arbCtx, (c, inv, ctx) => {
        const all = selectPatches(cfg({ patch_rule: 'all' }), inv, ctx);
        expect(all).toEqual(inv);
        const some = selectPatches(cfg(c), inv, ctx);
        expect(some).toEqual(all.filter((p) => some.includes(p)));
      }),
    );
  });

  it('patch_only and patch_all_except with the same patterns partition the inventory', () => {
    fc.assert(
      fc.property(arbPatterns, arbInventory, (filters, inv) => {
        const inc = selectPatches(cfg({ patch_rule: 'filter', filter_type: 'include', filters }), inv, CTX);
        const exc = selectPatches(cfg({ patch_rule: 'filter', filter_type: 'exclude', filters }), inv, CTX);
        expect(inc.filter((p) => exc.includes(p))).toEqual([]);
        expect(inc.length + exc.length).toBe(inv.length);
      }),
    );
  });

  it('choosing more severities never selects fewer patches', () => {
    fc.assert(
      fc.property(arbSeverities, arbSeverities, arbInventory, (a, b, inv) => {
        const union = [...new Set<SeverityFilterValue>([...a, ...b])];
        const small = selectPatches(
          cfg({ patch_rule: 'filter', filter_type: 'severity', severity_filter: a }),
          inv,
          CTX,
        );
        const big = selectPatches(
          cfg({ patch_rule: 'filter', filter_type: 'severity', severity_filter: union }),
          inv,
          CTX,
        );
        for (const p of small) expect(big).toContain(p);
      }),
    );
  });

  it('advanced rules combine with AND, and is / is-not split the inventory', () => {
    fc.assert(
      fc.property(arbRule, arbRule, arbInventory, arbCtx, (r1, r2, inv, ctx) => {
        const sel = (...rules: AdvancedFilter[]) =>
          selectPatches(cfg({ patch_rule: 'advanced', advanced_filter: rules }), inv, ctx);
        const both = sel(r1, r2);
        expect(both).toEqual(sel(r1).filter((p) => sel(r2).includes(p)));
        if (r1.condition === 'is' || r1.condition === 'is-not') {
          const flipped: AdvancedFilter = { ...r1, condition: r1.condition === 'is' ? 'is-not' : 'is' };
          for (const p of inv) expect(advancedRuleMatches(r1, p, ctx)).toBe(!advancedRuleMatches(flipped, p, ctx));
        }
      }),
    );
  });
});

describe('needsRequiredSoftware', () => {
  const installed = [{ name: 'curl', version: '8.5.0' }];
  it('installs where the package is missing or at another version', () => {
    expect(needsRequiredSoftware({ package_name: 'jq', package_version: 'latest' }, installed)).toBe(true);
    expect(needsRequiredSoftware({ package_name: 'Curl', package_version: 'latest' }, installed)).toBe(false);
    expect(needsRequiredSoftware({ package_name: 'curl', package_version: '8.5.0' }, installed)).toBe(false);
    expect(needsRequiredSoftware({ package_name: 'curl', package_version: '8.6.0' }, installed)).toBe(true);
  });
});
