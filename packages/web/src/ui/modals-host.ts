import { deferredHost } from '../ui/deferred-host';

// The confirm-modal host (Mantine's ModalsProvider, with Modal, the scroll area and
// floating-ui) is not on the login page, which opens no modal. Every other page loads it
// before it renders (lazyPage in chunks.ts); the tests load it in their setup.
const host = deferredHost(() => import('./ModalsHost').then((m) => m.ModalsHost));

/** Downloads the modal host and mounts it (once). */
export const loadModalsHost = host.load;
/** Renders the modal host once loaded; nothing before. */
export const DeferredModalsHost = host.Deferred;
