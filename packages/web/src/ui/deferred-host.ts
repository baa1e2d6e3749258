import { createElement, useSyncExternalStore, type ComponentType } from 'react';

/**
 * A host component kept off the first download (the confirm-modal host, the snackbar
 * container): `load` downloads and mounts it once, and a failed download is tried again at
 * the next call; `Deferred` renders it once loaded, nothing before.
 */
export function deferredHost(download: () => Promise<ComponentType>) {
  let Host: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    load(): Promise<void> {
      loading ??= download().then(
        (component) => {
          Host = component;
          listeners.forEach((l) => l());
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    Deferred() {
      const Loaded = useSyncExternalStore(subscribe, () => Host);
      return Loaded ? createElement(Loaded) : null;
    },
  };
}
