/** Pure parsers for macOS tools: softwareupdate, system_profiler, pkgutil, sw_vers. */
import type { Patch, SoftwareItem } from '../protocol.js';

/**
 * `softwareupdate -l`. macOS 10.15+ prints
 * `* Label: Safari17.1VenturaAuto-17.1` then a tab-indented
 * `Title: Safari, Version: 17.1, Size: 155254KiB, Recommended: YES, Action: restart,`;
 * older releases print `* Safari11.0.3Sierra-11.0.3` then `Safari (11.0.3), 58687K [recommended] [restart]`.
 */
export function parseSoftwareUpdateList(text: string): Patch[] {
  const out: Patch[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*\*\s+(?:Label:\s*)?(.+?)\s*$/.exec(lines[i]!);
    if (!head) continue;
    const label = head[1]!;
    const detail = lines[i + 1] ?? '';
    let title = label;
    let version = '';
    const modern = /Title:\s*([^,]+),\s*Version:\s*([^,]+),/.exec(detail);
    const legacy = modern ? null : /^\s*(.+?) \(([^)]+)\)/.exec(detail);
    if (modern) {
      title = modern[1]!.trim();
      version = modern[2]!.trim();
    } else if (legacy) {
      title = legacy[1]!;
      version = legacy[2]!.trim();
    }
    const recommended = modern ? /Recommended:\s*YES/i.test(detail) : /\[recommended\]/i.test(detail);
    const restart = modern ? /Action:\s*restart/i.test(detail) : /\[restart\]/i.test(detail);
    if (!version) version = label.split('-').pop() ?? '';
    out.push({
      name: label,
      current_version: null,
      version,
      // Apple publishes no severity per update; macOS and Safari releases are security releases.
      severity: recommended ? (/macOS|Safari|Security|XProtect/i.test(title) ? 'high' : 'medium') : 'low',
      cves: [],
      kb: null,
      source: `softwareupdate:${title}`,
      reboot_required: restart,
      published_at: null,
    });
  }
  return out;
}

type SpApp = { _name?: string; version?: string; arch_kind?: string; obtained_from?: string; path?: string };

/** `system_profiler SPApplicationsDataType -json` */
export function parseSystemProfilerApps(text: string): SoftwareItem[] {
  const parsed = JSON.parse(text) as { SPApplicationsDataType?: SpApp[] };
  return (parsed.SPApplicationsDataType ?? [])
    .filter((a) => a._name)
    .map((a) => ({
      name: a._name!,
      version: a.version ?? '',
      source: `app:${a.obtained_from ?? 'unknown'}`,
      arch: a.arch_kind ? a.arch_kind.replace(/^arch_/, '') : null,
    }));
}

/** Blocks of `pkgutil --pkg-info ID` output (package-id, version, ...) separated by blank lines. */
export function parsePkgutilInfo(text: string): SoftwareItem[] {
  const out: SoftwareItem[] = [];
  let id: string | null = null;
  let version: string | null = null;
  const flush = () => {
    if (id) out.push({ name: id, version: version ?? '', source: 'pkgutil', arch: null });
    id = null;
    version = null;
  };
  for (const line of text.split('\n')) {
    const m = /^([a-z-]+):\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === 'package-id') {
      flush();
      id = m[2]!;
    } else if (m[1] === 'version') version = m[2]!;
  }
  flush();
  return out;
}

/** `sw_vers`: ProductName, ProductVersion, BuildVersion. */
export function parseSwVers(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s*(.+)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

export type MacHardware = {
  model: string | null;
  serial: string | null;
  uuid: string | null;
  cpu: string | null;
  memoryBytes: number | null;
};

/** `system_profiler SPHardwareDataType -json` */
export function parseSystemProfilerHardware(text: string): MacHardware {
  const parsed = JSON.parse(text) as { SPHardwareDataType?: Record<string, string>[] };
  const hw = parsed.SPHardwareDataType?.[0] ?? {};
  const mem = /^(\d+(?:\.\d+)?)\s*(GB|MB|TB)$/i.exec(hw.physical_memory ?? '');
  const unit = { MB: 2 ** 20, GB: 2 ** 30, TB: 2 ** 40 } as const;
  return {
    model: hw.machine_model ?? hw.machine_name ?? null,
    serial: hw.serial_number ?? null,
    uuid: hw.platform_UUID ?? null,
    cpu: hw.chip_type ?? hw.cpu_type ?? null,
    memoryBytes: mem ? Math.round(Number(mem[1]) * unit[mem[2]!.toUpperCase() as keyof typeof unit]) : null,
  };
}
