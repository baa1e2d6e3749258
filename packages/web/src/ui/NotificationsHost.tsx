import { SNACKBAR_DURATION_MS, SNACKBAR_LIMIT } from '@patchwell/core/constants';
import { Notifications } from '@mantine/notifications';

/** Where snackbars show: five at most, 6 s, bottom right (spec A section 8). */
export function NotificationsHost() {
  return <Notifications limit={SNACKBAR_LIMIT} autoClose={SNACKBAR_DURATION_MS} position="bottom-right" />;
}
