/** Zones whose name contains the query, ignoring case (spec A section 2: zone switcher). */
export function filterZones<T extends { name: string }>(zones: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...zones];
  return zones.filter((z) => z.name.toLocaleLowerCase().includes(needle));
}
