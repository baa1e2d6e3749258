/**
 * A lexical sanity check of PowerShell scripts for machines without `pwsh` (the test host
 * is Debian): strings, here-strings, comments and `$(...)` inside strings are scanned as
 * PowerShell does, and brackets must balance and nest. It is not a parser: a script that
 * passes may still have grammar errors, but unterminated strings and stray brackets, the
 * mistakes a hand-edited script usually has, are caught. Used by tests only.
 */

const CLOSER: Record<string, string> = { '(': ')', '{': '}', '[': ']' };

/** Automatic variables PowerShell will not let a script assign. */
const READ_ONLY = /(^|[\s;({])\$(pid|host|true|false|home|pshome|shellid|psversiontable)\s*=(?!=)/im;

type Scan = { problems: string[]; stack: { char: string; line: number }[] };

function lineOf(code: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < code.length; i++) if (code[i] === '\n') line++;
  return line;
}

/** Scans a double-quoted string from just after its quote; returns the index after the closing quote. */
function scanDoubleQuoted(code: string, start: number, scan: Scan, hereString: boolean): number {
  let i = start;
  while (i < code.length) {
    const c = code[i];
    if (c === '`') {
      i += 2;
    } else if (c === '$' && code[i + 1] === '(') {
      scan.stack.push({ char: '(', line: lineOf(code, i) });
      i = scanCode(code, i + 2, scan, ')');
    } else if (hereString && c === '\n' && code.startsWith('"@', i + 1)) {
      return i + 3;
    } else if (!hereString && c === '"') {
      if (code[i + 1] === '"') i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  scan.problems.push(`line ${lineOf(code, start)}: unterminated ${hereString ? 'here-string' : 'string'}`);
  return code.length;
}

/**
 * Scans code from `start` until `until` closes at depth 0 (or the end of the text when
 * `until` is null); returns the index after that closer.
 */
function scanCode(code: string, start: number, scan: Scan, until: string | null): number {
  const depth = scan.stack.length;
  let i = start;
  while (i < code.length) {
    const c = code[i]!;
    const atTokenStart = i === 0 || /[\s;({[|]/.test(code[i - 1]!);
    if (c === '`') {
      i += 2;
    } else if (c === '<' && code[i + 1] === '#') {
      const end = code.indexOf('#>', i + 2);
      if (end < 0) {
        scan.problems.push(`line ${lineOf(code, i)}: unterminated block comment`);
        return code.length;
      }
      i = end + 2;
    } else if (c === '#' && atTokenStart) {
      const end = code.indexOf('\n', i);
      i = end < 0 ? code.length : end;
    } else if (c === '@' && (code.startsWith(`@'\n`, i) || code.startsWith(`@'\r\n`, i))) {
      const end = code.indexOf(`\n'@`, i + 2);
      if (end < 0) {
        scan.problems.push(`line ${lineOf(code, i)}: unterminated here-string`);
        return code.length;
      }
      i = end + 3;
    } else if (c === '@' && (code.startsWith(`@"\n`, i) || code.startsWith(`@"\r\n`, i))) {
      i = scanDoubleQuoted(code, code.indexOf('\n', i), scan, true);
    } else if (c === "'") {
      let j = i + 1;
      for (;;) {
        const end = code.indexOf("'", j);
        if (end < 0) {
          scan.problems.push(`line ${lineOf(code, i)}: unterminated string`);
          return code.length;
        }
        if (code[end + 1] === "'") j = end + 2;
        else {
          i = end + 1;
          break;
        }
      }
    } else if (c === '"') {
      i = scanDoubleQuoted(code, i + 1, scan, false);
    } else if (c in CLOSER) {
      scan.stack.push({ char: c, line: lineOf(code, i) });
      i++;
    } else if (c === ')' || c === '}' || c === ']') {
      const open = scan.stack.pop();
      if (!open || CLOSER[open.char] !== c) {
        scan.problems.push(
          `line ${lineOf(code, i)}: '${c}' does not close ${open ? `'${open.char}' of line ${open.line}` : 'anything'}`,
        );
        return code.length;
      }
      i++;
      if (until === c && scan.stack.length === depth - 1) return i;
    } else {
      i++;
    }
  }
  return i;
}

/** Problems found in the script, empty when it looks well-formed. */
export function checkPowerShellSanity(code: string): string[] {
  const scan: Scan = { problems: [], stack: [] };
  scanCode(code, 0, scan, null);
  for (const open of scan.stack) scan.problems.push(`line ${open.line}: '${open.char}' is never closed`);
  const readOnly = READ_ONLY.exec(code);
  if (readOnly) scan.problems.push(`assigns the read-only automatic variable $${readOnly[2]}`);
  return scan.problems;
}
