const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes in binary units with one decimal ('15.6 GB'); '—' when absent. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

/** A duration in seconds as '3d 4h 5m'; '—' when absent. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  return [d ? `${d}d` : '', h ? `${h}h` : '', `${m}m`].filter(Boolean).join(' ');
}

/**
 * An operating system's name with its version, once: agents report names that often carry
 * the version already ("macOS Sequoia 15.1", "Rocky Linux 9.4 (Blue Onyx)").
 */
export function formatOs(name: string, version: string): string {
  const n = name.trim();
  const v = version.trim();
  if (!v || n.includes(v)) return n;
  return `${n} ${v}`.trim();
}
