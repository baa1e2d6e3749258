import { LOADER_HIDE_DELAY_MS } from '@patchwell/core/constants';

type Listener = () => void;

export type LoaderStore = {
  /** A request (or navigation) began. */
  start(): void;
  /** A request (or navigation) settled. */
  finish(): void;
  /** Whether the bar shows: from the first start until 200 ms after the last finish. */
  isVisible(): boolean;
  /** Requests in flight. */
  pending(): number;
  subscribe(listener: Listener): () => void;
};

/**
 * The global loader (spec A section 4): counts concurrent requests, shows as soon as the
 * count leaves zero, and hides 200 ms after it returns to zero, so back-to-back requests
 * keep one steady bar instead of flickering.
 */
export function createLoaderStore(hideDelayMs: number = LOADER_HIDE_DELAY_MS): LoaderStore {
  let count = 0;
  let visible = false;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<Listener>();

  const emit = () => listeners.forEach((l) => l());
  const setVisible = (next: boolean) => {
    if (visible === next) return;
    visible = next;
    emit();
  };

  return {
    start() {
      count += 1;
      if (hideTimer !== undefined) {
        clearTimeout(hideTimer);
        hideTimer = undefined;
      }
      setVisible(true);
    },
    finish() {
      if (count === 0) return;
      count -= 1;
      if (count > 0) return;
      hideTimer = setTimeout(() => {
        hideTimer = undefined;
        setVisible(false);
      }, hideDelayMs);
    },
    isVisible: () => visible,
    pending: () => count,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The console's one loader, fed by the API client. */
export const globalLoader = createLoaderStore();
