/**
 * Page-view tracking (spec A section 2: each navigation sends a page-view event; visits to
 * deprecated routes are tracked). No third-party service: events go to a pluggable sink.
 * The default sink keeps the latest events in memory, readable as
 * `window.__patchwellPageViews` (the e2e suite reads it); it sends nothing anywhere.
 */
export type AnalyticsEvent =
  | { type: 'page_view'; path: string; search: string; title: string; at: number }
  | { type: 'deprecated_route'; from: string; to: string; at: number };

export type AnalyticsSink = (event: AnalyticsEvent) => void;

const MAX_KEPT = 200;

declare global {
  interface Window {
    __patchwellPageViews?: AnalyticsEvent[];
  }
}

const recorded: AnalyticsEvent[] = [];
if (typeof window !== 'undefined') window.__patchwellPageViews = recorded;

/** The default sink: an in-memory list of the last 200 events. */
export const memorySink: AnalyticsSink = (event) => {
  recorded.push(event);
  if (recorded.length > MAX_KEPT) recorded.splice(0, recorded.length - MAX_KEPT);
};

let sink: AnalyticsSink = memorySink;

/** Route events to another sink (an analytics service of the operator's choosing). */
export function setAnalyticsSink(next: AnalyticsSink): void {
  sink = next;
}

/** Events the default sink holds, oldest first. */
export function recordedEvents(): readonly AnalyticsEvent[] {
  return recorded;
}

function send(event: AnalyticsEvent) {
  try {
    sink(event);
  } catch {
    // Tracking must never break navigation.
  }
}

export function trackPageView(path: string, search: string, title: string): void {
  send({ type: 'page_view', path, search, title, at: Date.now() });
}

export function trackDeprecatedRoute(from: string, to: string): void {
  send({ type: 'deprecated_route', from, to, at: Date.now() });
}
