import { isIP } from 'node:net';
import {
  findScannerColumns,
  isEmptyCell,
  mapScannerSeverity,
  parseCvss,
  scannerFormat,
  splitCves,
  worseSeverity,
  type ColumnIndex,
} from '@patchwell/core/remediation/scanner-formats';
import {
  BATCH_UPLOAD_MAX_FINDINGS,
  BATCH_UPLOAD_MAX_ROWS,
  type RemediationSeverity,
  type ScannerColumn,
  type ScannerField,
  type ScannerSource,
} from '@patchwell/core/remediation/scanners.schema';
import { looksLikeFormula } from '@patchwell/core/rules/csv-formula';
import type { ErrorCode, PlainErrorCode } from '@patchwell/core/shell/error-catalogue';
import { AppError } from '../../../domain/errors';
import { normalizeHostname } from '../../devices/host-imports.parse';

/**
 * A scanner export's records, once they are CSV: the header line (after any preamble) by the
 * provider's columns, each row's cells, and the host × CVE findings they expand to. A file
 * whose columns or cells cannot be read is refused whole, naming the line and column.
 */

/** One host × CVE of the file, before matching. */
export type ParsedFinding = {
  /** The line the row ends on (a quoted cell may span lines). */
  line: number;
  /** The host as the scanner named it: its DNS or NetBIOS name, else its FQDN, else its IP. */
  hostname: string;
  fqdn: string | null;
  ipAddrs: string[];
  os: string | null;
  cve: string;
  severity: RemediationSeverity;
  severityRaw: string;
  cvss: number | null;
  title: string;
  solutionText: string | null;
};

export type ParsedUpload = {
  /** Data rows after the header. */
  rows: number;
  findings: ParsedFinding[];
  /** Rows without a CVE (informational checks) or whose finding the scanner closed. */
  skipped: number;
};

/** Lines before the header a report may carry (Qualys report downloads start with a few). */
const MAX_PREAMBLE_RECORDS = 30;
/** Cell errors listed in one answer; past this the file is clearly of another kind. */
const MAX_CELL_ERRORS = 20;
const MAX_TITLE = 500;
const MAX_SOLUTION = 2000;
const MAX_OS = 200;
const MAX_IPS = 32;

/** A batch refusal's catalogue code (each takes a detailed text naming the line and column). */
export type BatchRefusal = Extract<ErrorCode, `batches.${string}`> & Exclude<ErrorCode, PlainErrorCode>;

export const refuse = (code: BatchRefusal, detail: string, fieldErrors?: Record<string, string[]>) =>
  new AppError<BatchRefusal>(code, { wording: { detail }, fieldErrors });

/** A cell's text as an error message shows it: quoted, at most 40 characters. */
const shown = (cell: string) => `“${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}”`;

/** The rows of a scanner's export, taken one at a time, and what they amount to. */
export function rowReader(source: ScannerSource) {
  const format = scannerFormat(source);
  const closed = new Set(format.closed_statuses);
  let columns: ColumnIndex | undefined;
  let best: { found: number; line: number; missing: ScannerColumn[] } | undefined;
  let preamble = 0;
  let rows = 0;
  let skipped = 0;
  let closedRows = 0;
  const findings = new Map<string, ParsedFinding>();
  const cellErrors: string[] = [];

  const missingColumns = (missing: ScannerColumn[], line: number | undefined) => {
    const names = missing.map((c) => `“${c.name}”${c.aliases.length ? ` (or ${c.aliases.join(', ')})` : ''}`);
    return refuse(
      'batches.missing_columns',
      `${line ? `Line ${line}, the header,` : 'The file'} has no ${names.join(' and no ')} column, which the ` +
        `${format.label} format needs. Check that the file is a ${format.export_name}, or choose its scanner.`,
      { file: [`Missing column${missing.length > 1 ? 's' : ''}: ${missing.map((c) => c.name).join(', ')}`] },
    );
  };

  const cellError = (line: number, field: ScannerField, message: string) => {
    const c = columns![field]!;
    cellErrors.push(`Line ${line}, column ${c.index + 1} (“${c.header}”): ${message}`);
    if (cellErrors.length >= MAX_CELL_ERRORS) throw cellsRefused();
  };

  const cellsRefused = () =>
    refuse(
      'batches.bad_cells',
      cellErrors.length > 1 ? `${cellErrors[0]} (and ${cellErrors.length - 1} more)` : cellErrors[0]!,
      { file: cellErrors },
    );

  /** An identifier cell holding a formula is refused: it is an injection attempt or a damaged file. */
  const isFormula = (line: number, field: ScannerField, cell: string, what: string) => {
    if (isEmptyCell(cell) || !looksLikeFormula(cell)) return false;
    cellError(line, field, `${shown(cell)} looks like a spreadsheet formula, not ${what}.`);
    return true;
  };

  function readRow(cells: string[], line: number): void {
    const cell = (field: ScannerField) => {
      const c = columns![field];
      return c ? (cells[c.index] ?? '').trim() : '';
    };
    if (closed.has(cell('status').toLowerCase())) {
      skipped++;
      closedRows++;
      return;
    }
    const cveCell = cell('cve');
    if (isFormula(line, 'cve', cveCell, 'a CVE id')) return;
    const { cves, invalid } = splitCves(cveCell);
    if (invalid.length) {
      cellError(line, 'cve', `${shown(invalid[0]!)} is not a CVE id (such as CVE-2024-3094).`);
      return;
    }
    const severityRaw = cell('severity');
    // A placeholder (`-`, `N/A`) is no severity given.
    const severity = mapScannerSeverity(source, isEmptyCell(severityRaw) ? '' : severityRaw);
    if (severity === null) {
      if (!isFormula(line, 'severity', severityRaw, 'a severity')) {
        cellError(
          line,
          'severity',
          `${shown(severityRaw)} is not a ${format.label} severity (${format.severity_scale})`,
        );
      }
      return;
    }
    const names: Partial<Record<'host' | 'netbios' | 'fqdn', string>> = {};
    const ipAddrs: string[] = [];
    let hasFormula = false;
    for (const field of ['host', 'netbios', 'fqdn'] as const) {
      const raw = cell(field);
      if (isEmptyCell(raw)) continue;
      if (isFormula(line, field, raw, 'a host name')) {
        hasFormula = true;
        continue;
      }
      // Nessus's Host is an IP when the scan had no name for it.
      if (isIP(raw)) ipAddrs.push(raw);
      // A name Patchwell's devices cannot have (spaces, odd characters) is no key to match on;
      // a valid one is kept as the scanner wrote it (matching ignores case).
      else if (normalizeHostname(raw)) names[field] = raw.replace(/\.$/, '');
    }
    const ipCell = cell('ip');
    if (isFormula(line, 'ip', ipCell, 'an IP address')) hasFormula = true;
    else if (!isEmptyCell(ipCell)) {
      for (const token of ipCell.split(/[\s,;|]+/).filter(Boolean)) {
        if (isIP(token) === 0) return cellError(line, 'ip', `${shown(token)} is not an IP address.`);
        if (!ipAddrs.includes(token) && ipAddrs.length < MAX_IPS) ipAddrs.push(token);
      }
    }
    const cvssCell = cell('cvss');
    if (isFormula(line, 'cvss', cvssCell, 'a CVSS score') || hasFormula) return;
    if (cves.length === 0) {
      // A check without a CVE (an informational plugin, a configuration finding).
      skipped++;
      return;
    }
    const hostname = names.host ?? names.netbios ?? names.fqdn ?? ipAddrs[0];
    if (!hostname) {
      const hostColumns = (['host', 'netbios', 'fqdn', 'ip'] as const).filter((f) => columns![f]);
      const field = hostColumns[0] ?? 'cve';
      return cellError(line, field, 'the row names no host: its host name and IP address cells are empty.');
    }
    const os = cell('os').slice(0, MAX_OS) || null;
    const title = cell('title').slice(0, MAX_TITLE);
    const solutionText = cell('solution').slice(0, MAX_SOLUTION) || null;
    const cvss = parseCvss(cvssCell);
    const fqdn = names.fqdn && names.fqdn.toLowerCase() !== hostname.toLowerCase() ? names.fqdn : null;
    for (const cve of cves) {
      // A host × CVE the file repeats (Tenable repeats a plugin's row per port, Qualys lists a
      // CVE under several QIDs) is one finding: its first line, its worst severity.
      const key = `${hostname}\u0000${fqdn ?? ''}\u0000${ipAddrs.join(',')}\u0000${cve}`.toLowerCase();
      const seen = findings.get(key);
      if (seen) {
        if (worseSeverity(seen.severity, severity) !== seen.severity) {
          seen.severity = severity;
          seen.severityRaw = severityRaw.slice(0, 50);
        }
        if (cvss !== null && (seen.cvss === null || cvss > seen.cvss)) seen.cvss = cvss;
        if (!seen.title) seen.title = title;
        continue;
      }
      if (findings.size >= BATCH_UPLOAD_MAX_FINDINGS) {
        throw refuse(
          'batches.too_many_findings',
          `Line ${line}: the file names more than ${BATCH_UPLOAD_MAX_FINDINGS.toLocaleString('en-US')} host and CVE pairs. Split it into smaller files.`,
        );
      }
      findings.set(key, {
        line,
        hostname,
        fqdn,
        ipAddrs,
        os,
        cve,
        severity,
        severityRaw: severityRaw.slice(0, 50),
        cvss,
        title,
        solutionText,
      });
    }
  }

  let lastLine = 0;
  return {
    lastLine: () => lastLine,
    add(record: string[], line: number): void {
      lastLine = line;
      if (record.every((c) => c.trim() === '')) return;
      if (!columns) {
        const found = findScannerColumns(source, record);
        if (found.missing.length === 0) {
          columns = found.columns;
          return;
        }
        const count = Object.keys(found.columns).length;
        if (!best || count > best.found) best = { found: count, line, missing: found.missing };
        if (++preamble >= MAX_PREAMBLE_RECORDS) throw missingColumns(best.missing, best.found ? best.line : undefined);
        return;
      }
      if (++rows > BATCH_UPLOAD_MAX_ROWS) {
        throw refuse(
          'batches.too_many_rows',
          `Line ${line}: the file has more than ${BATCH_UPLOAD_MAX_ROWS.toLocaleString('en-US')} rows. Split it into smaller files.`,
        );
      }
      readRow(record, line);
    },
    finish(): ParsedUpload {
      if (!columns) {
        if (!best) throw refuse('batches.no_findings', 'The file is empty.');
        throw missingColumns(best.missing, best.found ? best.line : undefined);
      }
      if (cellErrors.length) throw cellsRefused();
      if (findings.size === 0) {
        throw refuse(
          'batches.no_findings',
          rows === 0
            ? 'The file has a header but no rows.'
            : `None of the file’s ${rows.toLocaleString('en-US')} rows names a CVE` +
                (closedRows ? ` that is still open (${closedRows.toLocaleString('en-US')} closed or fixed).` : '.'),
        );
      }
      return { rows, findings: [...findings.values()], skipped };
    },
  };
}
