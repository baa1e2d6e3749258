import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Serious or critical axe findings on the page as it is now, one line each with its nodes. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Only violations are read: axe then details one node of each passing or inapplicable rule
  // instead of every node, which was most of an analysis on the longer pages.
  const result = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
