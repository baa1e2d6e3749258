/**
 * The CSV exports' formula guard. It lives in core (rules/csv-cell.ts) so that jobs building
 * CSV outside a request (the reports' data extracts) pass their cells through the same one.
 */
export { csvCell, looksLikeFormula } from '@patchwell/core/rules/csv-cell';
