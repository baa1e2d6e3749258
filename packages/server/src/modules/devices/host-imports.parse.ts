import { isIP } from 'node:net';
import { CsvError, parse } from 'csv-parse/sync';
import type { OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import {
  HOST_IMPORT_COLUMNS,
  HOST_IMPORT_MAX_ROWS,
  type HostImportColumn,
} from '@patchwell/core/devices/host-imports.schema';
import { AppError } from '../../domain/errors';

/**
 * Reading a host-import CSV: the file's rules that need no database (encoding, delimiter,
 * headers and their aliases, each cell's format). The service adds the zone's rules.
 */

/** A data row before the zone's checks. `hostname` is lowercased when valid. */
export type ParsedHostRow = {
  line: number;
  hostname: string;
  isHostnameValid: boolean;
  ipAddrs: string[];
  osFamily: OsFamily | null;
  groupName: string;
  tags: string[];
  serial: string;
  notes: string;
  errors: string[];
  warnings: string[];
};

export type ParsedHostFile = { rows: ParsedHostRow[]; ignoredColumns: string[] };

const MAX_TAGS = 100;
const MAX_TAG_LENGTH = 100;
const MAX_SERIAL_LENGTH = 100;
const MAX_NOTES_LENGTH = 10_000;
const MAX_IPS = 32;

/** `Computer Name`, `computer_name`, `ComputerName` → `computername`. */
const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The column index of each field the import reads. Aliases are tried in the order
 * HOST_IMPORT_COLUMNS lists them, so the most specific header present wins.
 */
export function mapColumns(headers: string[]): {
  index: Partial<Record<HostImportColumn, number>>;
  ignored: string[];
} {
  const keys = headers.map(headerKey);
  const index: Partial<Record<HostImportColumn, number>> = {};
  for (const [column, aliases] of Object.entries(HOST_IMPORT_COLUMNS) as [HostImportColumn, readonly string[]][]) {
    for (const alias of aliases) {
      const at = keys.indexOf(headerKey(alias));
      if (at >= 0 && !Object.values(index).includes(at)) {
        index[column] = at;
        break;
      }
    }
  }
  const used = new Set(Object.values(index));
  const ignored = headers.filter((h, i) => !used.has(i) && h.trim() !== '');
  return { index, ignored };
}

/** Excel in many locales saves "CSV" with `;`; tab-separated exports exist too. Judged on the header line. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

/** The file as text, refusing what is not a UTF-8 CSV with a message that says what to do. */
function decode(file: Buffer): string {
  // XLSX files are ZIP archives; a renamed workbook is the most common wrong upload.
  if (file.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    throw new AppError('host_imports.workbook');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file);
  } catch {
    throw new AppError('host_imports.not_utf8');
  }
  // A NUL is no text a CSV holds (and none the database can store): a binary file, or UTF-16.
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    const line = text.slice(0, nul).split('\n').length;
    throw new AppError('host_imports.nul_character', { wording: { line } });
  }
  return text;
}

/** Splits the CSV into its header and data rows (with line numbers), within the row limit. */
export function readCsv(file: Buffer): { headers: string[]; records: { line: number; cells: string[] }[] } {
  const text = decode(file);
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      delimiter: delimiterOf(text),
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
      // One record beyond the limit is enough to know the file is too long.
      to: HOST_IMPORT_MAX_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines;
      throw new AppError('host_imports.bad_csv', { wording: { line, reason: err.message } });
    }
    throw err;
  }
  const [header, ...data] = parsed;
  if (!header) throw new AppError('host_imports.empty');
  if (data.length > HOST_IMPORT_MAX_ROWS) {
    throw new AppError('host_imports.too_many_rows');
  }
  if (data.length === 0) throw new AppError('host_imports.no_rows');
  return { headers: header.record, records: data.map((r) => ({ line: r.info.lines, cells: r.record })) };
}

// RFC 1123 labels; `_` too, as Windows NetBIOS names and some DNS zones use it.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The host name lowercased, without a trailing root dot; null when it is not a valid host name. */
export function normalizeHostname(raw: string): string | null {
  const name = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!name || name.length > 253) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

/** `web01.corp.example` → `web01`. */
export const shortName = (hostname: string) => hostname.split('.')[0]!;

const OS_PATTERNS: [RegExp, OsFamily][] = [
  [/\bwin(dows)?\b|^win\d|microsoft|^w(10|11)\b/, 'windows'],
  [/\bmac(os|intosh)?\b|\bos ?x\b|darwin|apple|sonoma|sequoia|ventura|monterey|tahoe/, 'mac'],
  [/linux|ubuntu|debian|cent ?os|\brhel\b|red ?hat|fedora|suse|\bsles\b|almalinux|rocky|raspbian/, 'linux'],
];

/** The OS family of another tool's free text ("Windows Server 2022 Datacenter", "macOS 15", "Ubuntu 24.04"). */
export function osFamilyOf(text: string): OsFamily | null {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  return OS_PATTERNS.find(([pattern]) => pattern.test(t))?.[1] ?? null;
}

/** Tags separated by `;` or `|` (commas are the CSV's own), trimmed, empty and repeated ones dropped. */
export function splitTags(cell: string): string[] {
  const seen = new Set<string>();
  for (const tag of cell.split(/[;|]/)) {
    const t = tag.trim();
    if (t && ![...seen].some((s) => s.toLowerCase() === t.toLowerCase())) seen.add(t);
  }
  return [...seen];
}

/** Reads one data row's cells into a row, with the cell-level errors. */
export function parseRow(
  cells: string[],
  index: Partial<Record<HostImportColumn, number>>,
  line: number,
): ParsedHostRow {
  const cell = (column: HostImportColumn) => (index[column] === undefined ? '' : (cells[index[column]] ?? '').trim());
  const errors: string[] = [];
  const warnings: string[] = [];

  const rawHost = cell('hostname');
  const hostname = normalizeHostname(rawHost);
  if (!rawHost) errors.push('Host name is required.');
  else if (!hostname) {
    errors.push('Host name may hold only letters, digits, “-”, “_” and dots (at most 253 characters).');
  }

  const ipAddrs = [
    ...new Set(
      cell('ip')
        .split(/[\s;|,]+/)
        .filter(Boolean),
    ),
  ];
  const badIps = ipAddrs.filter((ip) => isIP(ip) === 0);
  if (badIps.length) errors.push(`Not an IP address: ${badIps.slice(0, 3).join(', ')}.`);
  if (ipAddrs.length > MAX_IPS) errors.push(`At most ${MAX_IPS} IP addresses per host.`);

  const osText = cell('os');
  const osFamily = osFamilyOf(osText);
  if (osText && !osFamily) {
    warnings.push(`OS “${osText.slice(0, 60)}” is not Windows, macOS or Linux; it is left empty.`);
  }

  const tags = splitTags(cell('tags'));
  if (tags.length > MAX_TAGS) errors.push(`At most ${MAX_TAGS} tags per host.`);
  if (tags.some((tag) => tag.length > MAX_TAG_LENGTH))
    errors.push(`A tag may have at most ${MAX_TAG_LENGTH} characters.`);

  const serial = cell('serial');
  if (serial.length > MAX_SERIAL_LENGTH) errors.push(`Serial may have at most ${MAX_SERIAL_LENGTH} characters.`);
  const notes = cell('notes');
  if (notes.length > MAX_NOTES_LENGTH) errors.push(`Notes may have at most ${MAX_NOTES_LENGTH} characters.`);

  return {
    line,
    hostname: hostname ?? rawHost.slice(0, 255),
    isHostnameValid: hostname !== null,
    ipAddrs,
    osFamily,
    groupName: cell('group'),
    tags,
    serial,
    notes,
    errors,
    warnings,
  };
}
