import { afterEach, describe, expect, it, vi } from 'vitest';
import { memorySink, recordedEvents, setAnalyticsSink, trackDeprecatedRoute, trackPageView } from './analytics';

afterEach(() => setAnalyticsSink(memorySink));

describe('analytics', () => {
  it('keeps page views in memory, readable on window.__patchwellPageViews', () => {
    trackPageView('/devices', '?o=1', 'Devices · Patchwell');
    expect(window.__patchwellPageViews?.at(-1)).toMatchObject({ type: 'page_view', path: '/devices', search: '?o=1' });
  });

  it('sends events to a sink set by the operator instead', () => {
    const sink = vi.fn();
    setAnalyticsSink(sink);
    const before = recordedEvents().length;
    trackDeprecatedRoute('/activity-log?o=1', '/reports/activity-log?o=1');
    expect(sink).toHaveBeenCalledWith(expect.objectContaining({ type: 'deprecated_route', from: '/activity-log?o=1' }));
    expect(recordedEvents()).toHaveLength(before);
  });

  it('never lets a failing sink break navigation', () => {
    setAnalyticsSink(() => {
      throw new Error('offline');
    });
    expect(() => trackPageView('/x', '', 'X')).not.toThrow();
  });
});
