// The console's analytics sink exposes its events on window (packages/web/src/app/analytics.ts).
declare global {
  interface Window {
    __patchwellPageViews?: { type: string; path: string }[];
    /** What the shell spec's page recorded of `securitypolicyviolation` events. */
    cspViolations?: string[];
    /** What first-paint.spec's page counted of nodes leaving the console's root element. */
    __rootRemovals?: number;
  }
}
export {};
