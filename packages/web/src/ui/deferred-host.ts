import { createElement, useEffect, useSyncExternalStore, type ComponentType } from 'react';

/**
 * A host component kept off the first download (the confirm-modal host, the snackbar
 * container): `load` downloads and mounts it once, and a failed download is tried again at
 * the next call; `Deferred` renders it once loaded, nothing before; `mounted` downloads it and
 * resolves once it is in the page (its effects have run, so it hears what is sent to it).
 */
const noHost = () => undefined;

export function deferredHost(download: () => Promise<ComponentType>) {
  let Host: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  let onMounted: () => void = () => undefined;
  const isMounted = new Promise<void>((resolve) => (onMounted = resolve));
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const load = (): Promise<void> => {
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
  };
  return {
    load,
    mounted: (): Promise<void> => load().then(() => isMounted),
    Deferred() {
      // A page the server drew has no host yet, nor does the console when it hydrates that page.
      const Loaded = useSyncExternalStore(subscribe, () => Host, noHost);
      // A parent's effects run after its children's: the host's own are in place by now.
      useEffect(() => {
        if (Loaded) onMounted();
      }, [Loaded]);
      return Loaded ? createElement(Loaded) : null;
    },
  };
}
