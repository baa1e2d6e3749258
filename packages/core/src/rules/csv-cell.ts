/**
 * The one guard every CSV export passes its cells through (OWASP's CSV injection advice): a
 * cell a spreadsheet would read as a formula gets a leading apostrophe, so it shows as text.
 * Spreadsheets skip leading whitespace before a formula and, in East Asian input modes, take
 * full-width and small-form signs (＝ ＋ － ＠, ﹦ ﹢ ﹣ ﹫) and the minus sign (−) as the ASCII
 * ones; a cell starting with tab, CR or LF is guarded too.
 */

const FORMULA_START = /^(?:[\t\r\n]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B\u2212])/u;

/** Whether a spreadsheet could take `text` for a formula. */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** A value as an export cell: lists joined by spaces, nothing for null, formula-like text neutralised. */
export function csvCell(value: unknown): string {
  const text = Array.isArray(value) ? value.join(' ') : value === null || value === undefined ? '' : String(value);
  return looksLikeFormula(text) ? `'${text}` : text;
}
