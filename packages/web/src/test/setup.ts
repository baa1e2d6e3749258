import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadNotificationsHost } from '../ui/notifications-host';

// Tests talk to a real local HTTP server; on a busy CI machine a round trip and the render
// after it can take several seconds (Testing Library waits 1 s by default). A wait ends as
// soon as its condition holds, so a long limit costs passing tests nothing.
configure({ asyncUtilTimeout: 15_000 });

// Snackbars wait in Mantine's store until their host mounts, and a test may look for one
// anywhere: mount it at once. (Confirm modals load their host when asked for, as in the console.)
await loadNotificationsHost();

// jsdom has no layout engine. Mantine reads media queries: answer "yes" to min-width
// queries (a desktop-sized window) and "no" to max-width ones (STACK.md gotcha).
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: !query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => undefined;

// A current browser: CSS.supports answers (jsdom has no CSS object).
if (!window.CSS) Object.defineProperty(window, 'CSS', { value: {}, writable: true });
if (typeof window.CSS.supports !== 'function') {
  Object.defineProperty(window.CSS, 'supports', { value: () => true, writable: true });
}

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-level store: one test's snackbar must not
  // still be showing when the next test renders.
  notifications.clean();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
