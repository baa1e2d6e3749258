import type {
  WorkletCatalogEntry,
  WorkletCatalogList,
  WorkletCatalogQuery,
  WorkletLanguage,
} from './worklet-catalog.schema';
import { ZWorkletParameterValue } from './worklet-catalog.schema';

/**
 * Pure rules of the worklet catalogue, safe for the console: filtering a list and setting
 * parameter values in a script before a policy is saved from an entry.
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line that assigns a parameter, anchored to a line start so comments never match. */
function assignmentPattern(language: WorkletLanguage, name: string): RegExp {
  const n = escapeRegExp(name);
  return language === 'bash'
    ? new RegExp(`^${n}='(?:[^']|'\\\\'')*'$`, 'gm')
    : new RegExp(`^\\$${n} = '(?:[^']|'')*'$`, 'gm');
}

/** A single-quoted literal: bash has no escape inside quotes, PowerShell doubles the quote. */
function quote(language: WorkletLanguage, value: string): string {
  return language === 'bash' ? `'${value.replaceAll("'", `'\\''`)}'` : `'${value.replaceAll("'", "''")}'`;
}

/** Every value the script assigns to a parameter on a line of its own, in order. */
export function readWorkletParameter(code: string, language: WorkletLanguage, name: string): string[] {
  return [...code.matchAll(assignmentPattern(language, name))].map(([line]) => {
    const literal = line.slice(line.indexOf("'") + 1, -1);
    return language === 'bash' ? literal.replaceAll(`'\\''`, "'") : literal.replaceAll("''", "'");
  });
}

/**
 * Returns the script with each named parameter's assignment line set to the given value;
 * names the script does not assign are skipped. Values are quoted as literals, so nothing
 * in them is ever run. Throws when a value is not a single line.
 */
export function applyWorkletParameters(
  code: string,
  language: WorkletLanguage,
  values: Readonly<Record<string, string>>,
): string {
  let result = code;
  for (const [name, value] of Object.entries(values)) {
    ZWorkletParameterValue.parse(value);
    const line = language === 'bash' ? `${name}=${quote(language, value)}` : `$${name} = ${quote(language, value)}`;
    result = result.replace(assignmentPattern(language, name), () => line);
  }
  return result;
}

/**
 * Both scripts of a catalogue entry with parameter values set, as a policy created from
 * the entry stores them. Parameters not given keep their defaults; a name the entry does
 * not declare throws.
 */
export function applyWorkletEntryParameters(
  entry: Pick<WorkletCatalogEntry, 'language' | 'parameters' | 'evaluation_code' | 'remediation_code'>,
  values: Readonly<Record<string, string>>,
): { evaluation_code: string; remediation_code: string } {
  const declared = new Set(entry.parameters.map((p) => p.name));
  const unknown = Object.keys(values).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw new Error(`Unknown worklet parameter(s): ${unknown.join(', ')}.`);
  return {
    evaluation_code: applyWorkletParameters(entry.evaluation_code, entry.language, values),
    remediation_code: applyWorkletParameters(entry.remediation_code, entry.language, values),
  };
}

/** One page of the entries matching the query, with the count over all pages. */
export function queryWorkletCatalog(
  entries: readonly WorkletCatalogEntry[],
  query: WorkletCatalogQuery,
): WorkletCatalogList {
  const search = query.search?.trim().toLowerCase();
  const matching = entries.filter(
    (e) =>
      (!query.os_family || e.os_family === query.os_family) &&
      (!query.category || e.category === query.category) &&
      (!search || e.name.toLowerCase().includes(search) || e.description.toLowerCase().includes(search)),
  );
  const start = query.page * query.limit;
  return { results: matching.slice(start, start + query.limit), size: matching.length };
}
