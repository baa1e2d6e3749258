import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ZWorkletCatalogEntry,
  ZWorkletCatalogMeta,
  workletLanguageFor,
  type WorkletCatalogEntry,
} from '@patchwell/core/worklets/worklet-catalog.schema';
import { readWorkletParameter } from '@patchwell/core/worklets/worklet-rules';
import { PACKAGE_ROOT } from '../../package-root';

/**
 * Loads the shipped worklet catalogue from `catalog/<id>/`. SERVER AND TESTS ONLY: this
 * file uses node:fs, so the console (bundled by Vite) must never import it; the console
 * imports `worklet-catalog.schema.ts` and `worklet-rules.ts`, which are pure. The folder is
 * found from the server's package folder, so the bundle `npm start` runs reads the sources' copy.
 */

/** Folder holding one sub-folder per catalogue entry. */
export const WORKLET_CATALOG_DIR = join(PACKAGE_ROOT, 'src/modules/worklets/catalog');

const EXTENSION = { bash: 'sh', powershell: 'ps1' } as const;

/** Reads and validates one entry folder; throws with the folder's name when it is invalid. */
export function readWorkletCatalogEntry(dir: string): WorkletCatalogEntry {
  const folder = dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
  const meta = ZWorkletCatalogMeta.safeParse(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')));
  if (!meta.success) throw new Error(`worklet ${folder}: invalid meta.json: ${meta.error.message}`);
  if (meta.data.id !== folder) throw new Error(`worklet ${folder}: id ${meta.data.id} differs from its folder`);
  if (meta.data.language !== workletLanguageFor(meta.data.os_family)) {
    throw new Error(
      `worklet ${folder}: ${meta.data.os_family} worklets are written in ${workletLanguageFor(meta.data.os_family)}`,
    );
  }
  const ext = EXTENSION[meta.data.language];
  const read = (name: string): string => {
    const file = join(dir, `${name}.${ext}`);
    if (!existsSync(file)) throw new Error(`worklet ${folder}: ${name}.${ext} is missing`);
    return readFileSync(file, 'utf8');
  };
  const entry = ZWorkletCatalogEntry.safeParse({
    ...meta.data,
    evaluation_code: read('evaluate'),
    remediation_code: read('remediate'),
  });
  if (!entry.success) throw new Error(`worklet ${folder}: ${entry.error.message}`);
  // A parameter the console edits is assigned once, with the default it advertises, in
  // each script that uses it (a threshold may matter to one script only).
  for (const p of entry.data.parameters) {
    const assigned = [entry.data.evaluation_code, entry.data.remediation_code].map((code) =>
      readWorkletParameter(code, entry.data.language, p.name),
    );
    if (assigned.every((values) => values.length === 0) || assigned.some((values) => values.length > 1)) {
      throw new Error(`worklet ${folder}: parameter ${p.name} must be assigned once in a script that uses it`);
    }
    if (assigned.flat().some((value) => value !== p.default)) {
      throw new Error(`worklet ${folder}: a script assigns ${p.name} a value other than its default`);
    }
  }
  return entry.data;
}

let cache: readonly WorkletCatalogEntry[] | undefined;

/** Every entry, sorted by OS family then name; read once per process (about 30 small files). */
export function loadWorkletCatalog(dir: string = WORKLET_CATALOG_DIR): readonly WorkletCatalogEntry[] {
  if (dir === WORKLET_CATALOG_DIR && cache) return cache;
  const entries = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => readWorkletCatalogEntry(join(dir, d.name)))
    .sort((a, b) => a.os_family.localeCompare(b.os_family) || a.name.localeCompare(b.name));
  const seen = new Set<string>();
  for (const e of entries) {
    for (const key of [e.id, e.uuid, String(e.legacy_id)].filter((k): k is string => Boolean(k))) {
      if (seen.has(key)) throw new Error(`worklet catalogue: duplicate id or uuid ${key}`);
      seen.add(key);
    }
  }
  if (dir === WORKLET_CATALOG_DIR) cache = entries;
  return entries;
}

/** The entry with this slug, UUID, legacy number, or `{UUID}-{legacy number}` (the family's links), or null. */
export function findWorkletCatalogEntry(key: string): WorkletCatalogEntry | null {
  const k = key.toLowerCase();
  return (
    loadWorkletCatalog().find(
      (e) => e.id === k || e.uuid === k || String(e.legacy_id) === k || `${e.uuid}-${e.legacy_id}` === k,
    ) ?? null
  );
}

/** The entry a policy's `community_worklet_id` names, or null. */
export function findWorkletByLegacyId(legacyId: number): WorkletCatalogEntry | null {
  return loadWorkletCatalog().find((e) => e.legacy_id === legacyId) ?? null;
}
