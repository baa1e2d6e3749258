/**
 * Whether a spreadsheet would read a text as a formula (OWASP's CSV injection advice). Shared
 * by the server's CSV exports, which neutralise such cells, and by imports, which refuse such
 * a cell where only an identifier (a host, an IP, a CVE id) belongs. Spreadsheets skip leading
 * whitespace before a formula and, in East Asian input modes, take full-width and small-form
 * signs (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫) and the minus sign (−) as the ASCII ones; a text starting with
 * tab, CR or LF counts too.
 */
const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B\u2212])/u;

export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}
