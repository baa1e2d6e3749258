import { modals, type OpenConfirmModal } from '@mantine/modals';
import { deferredHost } from './deferred-host';

// The confirm-modal host (Mantine's ModalsProvider, with Modal and its scroll lock) loads with
// the first confirmation asked for: most page views open none.
const host = deferredHost(() => import('./ModalsHost').then((m) => m.ModalsHost));

/** Downloads the modal host and mounts it (once). */
export const loadModalsHost = host.load;
/** Renders the modal host once loaded; nothing before. */
export const DeferredModalsHost = host.Deferred;

/**
 * Mantine's `modals.openConfirmModal`, once the host is mounted to hear it (the modals store
 * speaks through window events, which nothing hears before). Resolves to the modal's id.
 */
export async function openConfirmModal(props: OpenConfirmModal): Promise<string> {
  await host.mounted();
  return modals.openConfirmModal(props);
}
