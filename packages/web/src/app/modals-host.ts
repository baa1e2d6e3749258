import { createElement, useSyncExternalStore, type ComponentType } from 'react';

// The confirm-modal host (Mantine's ModalsProvider, with Modal, the scroll area and
// floating-ui) is not on the login page, which opens no modal. Every other page loads it
// before it renders (lazyPage in chunks.ts); the tests load it in their setup.
let Host: ComponentType | undefined;
const listeners = new Set<() => void>();

/** Downloads the modal host and mounts it (once). */
export async function loadModalsHost(): Promise<void> {
  const { ModalsHost } = await import('./ModalsHost');
  if (Host) return;
  Host = ModalsHost;
  listeners.forEach((l) => l());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Renders the modal host once loaded; nothing before. */
export function DeferredModalsHost() {
  const Loaded = useSyncExternalStore(subscribe, () => Host);
  return Loaded ? createElement(Loaded) : null;
}
