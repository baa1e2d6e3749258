import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONSOLE_TEXTS } from '../../../texts';
import { ActivityChart, ComplianceTrend, niceCeiling } from './DashboardCharts';

const T = CONSOLE_TEXTS.dashboard;
const titles = (root: HTMLElement, selector: string) =>
  [...root.querySelectorAll<HTMLElement>(selector)].map((e) => e.title);

describe('the count axis', () => {
  it('tops out at the smallest of 1, 2 and 5 × 10ⁿ that holds the largest count', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 49, 51, 999].map(niceCeiling)).toEqual([1, 1, 2, 5, 10, 10, 20, 50, 100, 1000]);
  });
});

describe('patch activity', () => {
  const days = [
    { date: '2026-11-24', installed: 0, failed: 0 },
    { date: '2026-11-25', installed: 8, failed: 2 },
    { date: '2026-11-26', installed: 4, failed: 0 },
  ];

  it('draws a bar for each day and series, of its share of the axis, titled with the day and figure', () => {
    const { getByRole } = render(<ActivityChart days={days} />);
    const chart = getByRole('img', { name: T.activity });
    const bars = [...chart.querySelectorAll<HTMLElement>('[title]')];
    expect(bars.map((b) => b.title)).toEqual([
      'Nov 24, Installed: 0',
      'Nov 24, Failed: 0',
      'Nov 25, Installed: 8',
      'Nov 25, Failed: 2',
      'Nov 26, Installed: 4',
      'Nov 26, Failed: 0',
    ]);
    // The axis tops out at 10: 8 installed is 80 % of its height.
    expect(bars.map((b) => b.style.height)).toEqual(['0%', '0%', '80%', '20%', '40%', '0%']);
    expect([...chart.querySelectorAll('[style*="bottom"]')].map((t) => t.textContent).filter(Boolean)).toEqual([
      '0',
      '5',
      '10',
    ]);
  });

  it('has no half ticks when the largest count is 1', () => {
    const { getByRole } = render(<ActivityChart days={[{ date: '2026-11-24', installed: 1, failed: 0 }]} />);
    const ticks = [...getByRole('img').querySelectorAll('[style*="bottom"]')].map((t) => t.textContent);
    expect(ticks.filter(Boolean)).toEqual(['0', '1']);
  });
});

describe('the compliance trend', () => {
  const day = (date: string, percent: number | null) => ({ date, compliant: null, total: null, percent });

  it('joins the days with a figure and leaves a gap, not a zero, where a day has none', () => {
    const trend = [day('2026-11-01', 50), day('2026-11-02', 60), day('2026-11-03', null), day('2026-11-04', 80)];
    const { getByRole } = render(<ComplianceTrend trend={trend} />);
    const chart = getByRole('img', { name: T.complianceTrend });
    // x at the middle of each of the 4 days (12.5, 37.5, …), y from the top (100 − percent).
    expect(chart.querySelector('path')?.getAttribute('d')).toBe('M12.5 50L37.5 40M87.5 20l0 0');
    expect(titles(chart, '[title]')).toEqual([
      `Nov 1, ${T.percentLabel}: 50`,
      `Nov 2, ${T.percentLabel}: 60`,
      `Nov 3, ${T.percentLabel}: ${T.noFigure}`,
      `Nov 4, ${T.percentLabel}: 80`,
    ]);
  });

  it('labels at most five days under the axis', () => {
    const trend = Array.from({ length: 30 }, (_, i) => day(`2026-11-${String(i + 1).padStart(2, '0')}`, 90));
    const { getByRole } = render(<ComplianceTrend trend={trend} />);
    const labels = [...getByRole('img').querySelectorAll('span')]
      .map((s) => s.textContent)
      .filter((t) => /^Nov/.test(t ?? ''));
    expect(labels).toEqual(['Nov 1', 'Nov 7', 'Nov 13', 'Nov 19', 'Nov 25']);
  });
});
