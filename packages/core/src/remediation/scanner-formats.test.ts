import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findScannerColumns,
  headerKey,
  mapScannerSeverity,
  parseCvss,
  scannerFormat,
  scannerFormatList,
  splitCves,
  worseSeverity,
} from './scanner-formats';
import { SCANNER_SOURCES, ZScannerFormatList } from './scanners.schema';

describe('scanner formats', () => {
  it('lists every provider, valid against the formats answer’s schema', () => {
    const list = scannerFormatList();
    expect(ZScannerFormatList.parse(list).map((f) => f.name)).toEqual([...SCANNER_SOURCES]);
    for (const format of list) {
      expect(
        format.headers.some((h) => h.field === 'cve' && h.required),
        format.name,
      ).toBe(true);
      expect(Object.keys(format)).not.toContain('severity');
    }
  });

  it('gives each provider an example whose header line its own columns read', () => {
    for (const format of scannerFormatList()) {
      const lines = format.example.replace(/^\uFEFF/, '').split(/\r?\n/);
      const headers = lines.map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
      const found = headers.map((h) => findScannerColumns(format.name, h)).find((r) => r.missing.length === 0);
      expect(found, format.name).toBeDefined();
    }
  });

  it('finds columns by name or alias anywhere in the row, ignoring case, spacing and other columns', () => {
    const { columns, missing } = findScannerColumns('tenable', [
      'Plugin ID',
      '',
      'cve',
      'Synopsis',
      'RISK',
      'host',
      'CVSS v2.0 Base Score',
      'Plugin Output',
    ]);
    expect(missing).toEqual([]);
    expect(columns.cve).toMatchObject({ index: 2, header: 'cve' });
    expect(columns.severity).toMatchObject({ index: 4, column: { name: 'Risk' } });
    expect(columns.host?.index).toBe(5);
    // The v3 score is preferred, the v2 one taken when it is all there is.
    expect(columns.cvss?.header).toBe('CVSS v2.0 Base Score');
    expect(columns.title).toBeUndefined();
  });

  it('takes a repeated header once, and names the required columns missing', () => {
    const { columns, missing } = findScannerColumns('crowd-strike', ['Hostname', 'Hostname', 'CVE ID']);
    expect(columns.host?.index).toBe(0);
    expect(missing.map((c) => c.name)).toEqual(['Severity']);
  });

  it('finds the same columns whatever their order and whatever else the export carries', () => {
    for (const source of SCANNER_SOURCES) {
      const names = scannerFormat(source).headers.map((h) => h.name);
      const extra = fc
        .string({ minLength: 1, maxLength: 12 })
        .filter(
          (s) =>
            !scannerFormat(source).headers.some((h) =>
              [h.name, ...h.aliases].some((n) => headerKey(n) === headerKey(s)),
            ),
        );
      fc.assert(
        fc.property(
          fc.shuffledSubarray(names, { minLength: names.length }),
          fc.array(extra, { maxLength: 10 }),
          (order, others) => {
            const row = [...others.slice(0, 5), ...order, ...others.slice(5)];
            const { columns, missing } = findScannerColumns(source, row);
            expect(missing).toEqual([]);
            for (const column of scannerFormat(source).headers) {
              expect(row[columns[column.field]!.index]).toBe(column.name);
            }
          },
        ),
        { numRuns: 50 },
      );
    }
  });
});

describe('severity scales', () => {
  it.each([
    ['qualys', '5', 'critical'],
    ['qualys', '4', 'high'],
    ['qualys', '3', 'medium'],
    ['qualys', '1', 'low'],
    ['qualys', '', 'none'],
    ['qualys', '6', null],
    ['qualys', 'High', null],
    ['tenable', 'Critical', 'critical'],
    ['tenable', 'None', 'none'],
    ['tenable', '3', 'high'],
    ['tenable', 'Info', 'none'],
    ['tenable', 'Severe', null],
    ['crowd-strike', 'CRITICAL', 'critical'],
    ['crowd-strike', 'Unknown', 'none'],
    ['rapid7', '10', 'critical'],
    ['rapid7', '8', 'critical'],
    ['rapid7', '7', 'high'],
    ['rapid7', '4', 'high'],
    ['rapid7', '3', 'medium'],
    ['rapid7', 'Severe', 'high'],
    ['rapid7', '11', null],
    ['generic', ' low ', 'low'],
    ['generic', '', 'none'],
    ['generic', '7.5', null],
  ] as const)('%s %j → %s', (source, raw, expected) => {
    expect(mapScannerSeverity(source, raw)).toBe(expected);
  });

  it('keeps the worse of two severities', () => {
    expect(worseSeverity('low', 'high')).toBe('high');
    expect(worseSeverity('critical', 'none')).toBe('critical');
  });
});

describe('cells', () => {
  it('splits a cell of CVEs on commas, spaces, semicolons and line breaks, upper-cased and once each', () => {
    expect(splitCves('CVE-2024-1234, cve-2024-5678;CVE-2024-1234\nCVE-2023-44487')).toEqual({
      cves: ['CVE-2024-1234', 'CVE-2024-5678', 'CVE-2023-44487'],
      invalid: [],
    });
    expect(splitCves('-')).toEqual({ cves: [], invalid: [] });
    expect(splitCves('N/A')).toEqual({ cves: [], invalid: [] });
    expect(splitCves('CVE-2024-1 MS17-010')).toEqual({ cves: [], invalid: ['CVE-2024-1', 'MS17-010'] });
  });

  it('reads a CVSS score with its vector or a decimal comma, within 0 to 10', () => {
    expect(parseCvss('9.8 (AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H)')).toBe(9.8);
    expect(parseCvss('7,5')).toBe(7.5);
    expect(parseCvss('10')).toBe(10);
    expect(parseCvss('11')).toBeNull();
    expect(parseCvss('')).toBeNull();
    expect(parseCvss('high')).toBeNull();
  });
});
