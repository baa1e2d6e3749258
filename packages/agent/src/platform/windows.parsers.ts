/** Pure parsers for the JSON that the Windows adapter's PowerShell scripts print. */
import type { Patch, Severity, SoftwareItem } from '../protocol.js';

/** ConvertTo-Json prints a bare object for one item and nothing for none. */
export function asArray<T>(text: string): T[] {
  const trimmed = text.trim().replace(/^\uFEFF/, '');
  if (!trimmed) return [];
  const parsed = JSON.parse(trimmed) as T | T[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

type UninstallEntry = {
  DisplayName?: string;
  DisplayVersion?: string | null;
  Publisher?: string | null;
  Arch?: string;
};

/** Registry uninstall keys (HKLM 64/32-bit and HKCU), de-duplicated by name and version. */
export function parseUninstallEntries(text: string): SoftwareItem[] {
  const seen = new Set<string>();
  const out: SoftwareItem[] = [];
  for (const e of asArray<UninstallEntry>(text)) {
    const name = e.DisplayName?.trim();
    if (!name) continue;
    const version = e.DisplayVersion?.trim() ?? '';
    const key = `${name}\u0000${version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      name,
      version,
      source: e.Publisher ? `registry:${e.Publisher.trim()}` : 'registry',
      arch: e.Arch ?? null,
    });
  }
  return out;
}

type WuaUpdate = {
  Title?: string;
  KB?: string | null;
  Severity?: string | null;
  CVEs?: string[] | string | null;
  Reboot?: boolean | number;
  Published?: string | null;
  Categories?: string[] | string | null;
};

function wuaSeverity(value: string | null | undefined): Severity {
  switch ((value ?? '').toLowerCase()) {
    case 'critical':
      return 'critical';
    case 'important':
      return 'high';
    case 'moderate':
      return 'medium';
    case 'low':
      return 'low';
    default:
      return 'unknown';
  }
}

function list(value: string[] | string | null | undefined): string[] {
  if (!value) return [];
  return Array.isArray(value) ? value : [value];
}

/** Windows Update Agent search results (`IUpdateSearcher.Search('IsInstalled=0 and IsHidden=0')`). */
export function parseWuaUpdates(text: string): Patch[] {
  return asArray<WuaUpdate>(text)
    .filter((u) => u.Title)
    .map((u) => {
      const kbs = list(u.KB)
        .flatMap((k) => String(k).split(','))
        .filter(Boolean);
      const kb = kbs[0] ? `KB${kbs[0].replace(/^KB/i, '')}` : null;
      const version = /\((?:Version )?(\d+\.\d+(?:\.\d+)*)\)/.exec(u.Title!)?.[1] ?? kb ?? '';
      return {
        name: u.Title!,
        current_version: null,
        version,
        severity: wuaSeverity(u.Severity),
        cves: list(u.CVEs),
        kb,
        source: `windows_update${list(u.Categories)[0] ? `:${list(u.Categories)[0]}` : ''}`,
        reboot_required: Boolean(u.Reboot),
        published_at: u.Published ?? null,
      };
    });
}

export type WindowsSystem = {
  Caption?: string;
  Version?: string;
  OSArchitecture?: string;
  LastBootUpTime?: string;
  Manufacturer?: string;
  Model?: string;
  TotalPhysicalMemory?: number;
  UserName?: string | null;
  Domain?: string | null;
  Serial?: string | null;
  Cpu?: string;
  Cores?: number;
  MachineGuid?: string;
  RebootPending?: boolean;
  Disks?:
    { Model?: string; Size?: number; MediaType?: string }[] | { Model?: string; Size?: number; MediaType?: string };
};

/** The system script's single JSON object. */
export function parseWindowsSystem(text: string): WindowsSystem {
  return asArray<WindowsSystem>(text)[0] ?? {};
}
