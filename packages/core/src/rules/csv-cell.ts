import { looksLikeFormula } from './csv-formula';

/**
 * The one guard every CSV export passes its cells through (OWASP's CSV injection advice): a
 * cell a spreadsheet would read as a formula ({@link looksLikeFormula}, shared with the
 * imports) gets a leading apostrophe, so it shows as text.
 */

export { looksLikeFormula };

/** A value as an export cell: lists joined by spaces, nothing for null, formula-like text neutralised. */
export function csvCell(value: unknown): string {
  const text = Array.isArray(value) ? value.join(' ') : value === null || value === undefined ? '' : String(value);
  return looksLikeFormula(text) ? `'${text}` : text;
}
