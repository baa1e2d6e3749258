import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CsvError, parse, type Parser } from 'csv-parse';
import type { ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type { AppError } from '../../../domain/errors';
import { refuse, rowReader, type ParsedUpload } from './batch-rows.parse';

/**
 * Reading a scanner's CSV export as it streams in: the file's encoding and delimiter, and
 * csv-parse's records handed to the row reader (batch-rows.parse.ts). Everything here needs
 * no database; a file that cannot be read is refused whole, with the line (and column) of
 * what is wrong, before anything is stored.
 */

export type { ParsedFinding, ParsedUpload } from './batch-rows.parse';

export type UploadStream = {
  stream: Readable;
  /** Whether the multipart parser cut the file at the size limit (final once the stream ended). */
  isTruncated: () => boolean;
  tooLarge: () => AppError;
};

/** A record longer than this is no scanner row (a binary file without line breaks). */
const MAX_RECORD_CHARS = 1_000_000;

/** The delimiter of the file's first lines: `,` unless `;` or tab clearly win (Excel in many locales). */
export function sniffDelimiter(sample: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  let lines = 0;
  for (const ch of sample) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === '\n' && ++lines >= 40) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  const [best, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return n > counts.get(',')! ? best : ',';
}

/** The text of a file's bytes as they arrive, refusing what is not UTF-8 text. */
function textDecoder() {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let lines = 1;
  let first = true;
  const lineAt = (text: string, index: number) => lines + (text.slice(0, index).match(/\n/g)?.length ?? 0);
  return {
    decode(chunk: Buffer | undefined): string {
      // XLSX workbooks are ZIP archives: the most common wrong upload.
      if (first && chunk && chunk.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
        throw refuse(
          'batches.not_csv',
          'This file is a spreadsheet workbook, not CSV. Export the scan as CSV and upload that.',
        );
      }
      first = false;
      let text: string;
      try {
        text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
      } catch {
        const loose = chunk ? new TextDecoder('utf-8').decode(chunk) : '';
        const at = loose.indexOf('\uFFFD');
        throw refuse(
          'batches.not_utf8',
          `Line ${lineAt(loose, Math.max(at, 0))}: the file is not UTF-8 text (a binary file, or another encoding). ` +
            'Export the scan as CSV (UTF-8) and upload it again.',
        );
      }
      const nul = text.indexOf('\0');
      if (nul >= 0) {
        throw refuse(
          'batches.not_csv',
          `Line ${lineAt(text, nul)} holds a NUL character, so this is not a CSV text file. Export the scan as CSV and upload that.`,
        );
      }
      lines += text.match(/\n/g)?.length ?? 0;
      return text;
    },
  };
}

/**
 * The message of csv-parse's error, with its line, in words an administrator can act on.
 * `lastLine` is the line the last good row ended on: an unclosed quote opened after it.
 */
function csvErrorOf(err: CsvError, lastLine: number): AppError {
  const line = typeof err.lines === 'number' ? err.lines : undefined;
  const at = line ? `Line ${line}` : 'The file';
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return refuse(
        'batches.bad_csv',
        `Line ${lastLine + 1}: a quoted cell opens and never closes${line ? ` (the file ends at line ${line})` : ''}, ` +
          'so the file is cut short or not CSV. Export the scan again.',
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'INVALID_OPENING_QUOTE':
      return refuse(
        'batches.bad_csv',
        `${at}${typeof err.column === 'number' ? `, column ${err.column + 1}` : ''}: a quote inside a cell is not doubled (""), so the file is not valid CSV.`,
      );
    case 'CSV_MAX_RECORD_SIZE':
      return refuse('batches.bad_csv', `${at}: a row is longer than a scanner writes; this is not a CSV export.`);
    default:
      return refuse('batches.bad_csv', `${at}: the file is not valid CSV (${err.message}).`);
  }
}

/**
 * Parses a scanner export as it streams in (csv-parse: BOM, quoted cells spanning lines,
 * CRLF). Refuses with 400 a file that is not UTF-8 CSV, lacks a required column, has more
 * than BATCH_UPLOAD_MAX_ROWS rows, a cut-off quote or unreadable cells (each named by line
 * and column), and with 413 one over the size limit. The rest of a refused upload is read
 * and dropped, so the answer reaches the client and the connection stays usable.
 */
export async function parseScannerCsv(source: ScannerSource, upload: UploadStream): Promise<ParsedUpload> {
  const reader = rowReader(source);
  const decoder = textDecoder();
  let parser: Parser | undefined;
  let failure: unknown;
  let done: Promise<void> | undefined;

  const start = (sample: string) => {
    const p = parse({
      bom: true,
      delimiter: sniffDelimiter(sample),
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_CHARS,
      // Rows are read as they are parsed and never buffered: a 32 MiB file is not held twice.
      on_record: (record: string[], context) => {
        try {
          reader.add(record, context.lines);
        } catch (err) {
          // Kept at once: the parser reports it only on a later tick, after more writes.
          failure ??= err;
          throw err;
        }
        return null;
      },
    });
    p.on('error', (err) => {
      failure ??= err;
    });
    p.resume();
    done = finished(p).catch((err: unknown) => {
      failure ??= err;
    });
    return p;
  };

  try {
    for await (const chunk of upload.stream) {
      if (failure) continue;
      try {
        const text = decoder.decode(chunk as Buffer);
        if (!text) continue;
        parser ??= start(text);
        // The parser handles each write synchronously (no record is pushed), so nothing queues.
        parser.write(text);
      } catch (err) {
        failure ??= err;
      }
    }
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 413) throw upload.tooLarge();
    throw err;
  }
  if (upload.isTruncated()) throw upload.tooLarge();
  if (!failure) {
    try {
      const rest = decoder.decode(undefined);
      parser ??= start(rest);
      parser.end(rest);
    } catch (err) {
      failure ??= err;
    }
  } else parser?.destroy();
  await done;
  if (failure instanceof CsvError) throw csvErrorOf(failure, reader.lastLine());
  if (failure) throw failure;
  return reader.finish();
}
