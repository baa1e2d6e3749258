import { deferredHost } from './deferred-host';

// Mantine's Notifications container (with react-transition-group and its drag handling) loads
// with the first snackbar: most visits to the login page show none. A snackbar asked for
// before it arrives waits in Mantine's store and shows once the container mounts.
const host = deferredHost(() => import('./NotificationsHost').then((m) => m.NotificationsHost));

/** Downloads the snackbar container and mounts it (once; a failed download is tried again with the next snackbar). */
export const loadNotificationsHost = host.load;
/** Renders the snackbar container once loaded; nothing before. */
export const DeferredNotificationsHost = host.Deferred;
