/**
 * A legacy browser lacks features every current browser has had since 2022-2023:
 * `structuredClone` and CSS `:has()`. Those are the ones whose absence breaks this console.
 */
export type BrowserFeatures = {
  structuredClone?: unknown;
  CSS?: { supports?: (condition: string) => boolean };
};

export function isLegacyBrowser(win: BrowserFeatures = window as BrowserFeatures): boolean {
  if (typeof win.structuredClone !== 'function') return true;
  const css = win.CSS;
  if (typeof css?.supports !== 'function') return true;
  try {
    return !css.supports('selector(:has(*))');
  } catch {
    return true;
  }
}
