import { createElement, useSyncExternalStore, type ComponentType } from 'react';

// Mantine's Notifications container (with react-transition-group and its drag handling) loads
// with the first snackbar: most visits to the login page show none. A snackbar asked for
// before it arrives waits in Mantine's store and shows once the container mounts.
let Host: ComponentType | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

/** Downloads the snackbar container and mounts it (once). */
export function loadNotificationsHost(): Promise<void> {
  loading ??= import('./NotificationsHost').then(
    ({ NotificationsHost }) => {
      Host = NotificationsHost;
      listeners.forEach((l) => l());
    },
    (error: unknown) => {
      // A failed download is tried again with the next snackbar.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Renders the snackbar container once loaded; nothing before. */
export function DeferredNotificationsHost() {
  const Loaded = useSyncExternalStore(subscribe, () => Host);
  return Loaded ? createElement(Loaded) : null;
}
