import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../../../test/render';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';
import { FixHistory } from './FixHistory';

describe('FixHistory', () => {
  it('draws a single day as a level line across the chart, not an invisible point', () => {
    renderAt(<FixHistory history={[{ date: '2026-11-25', affected: 0, remediated: 1 }]} />);
    const chart = screen.getByRole('img', { name: T.historyChart('2026-11-25', '2026-11-25', 0, 1) });
    const lines = [...chart.querySelectorAll('polyline')].map((l) => l.getAttribute('points')!.split(' '));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toHaveLength(2);
      expect(line[0]).not.toBe(line[1]);
    }
  });
});
