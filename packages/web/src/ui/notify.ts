import { SNACKBAR_DURATION_MS } from '@patchwell/core/constants';
import { BASE_TEXTS } from '@patchwell/core/texts.base';
import { notifications } from '@mantine/notifications';
import { ENTRY_TEXTS } from '../texts.entry';
import { loadNotificationsHost } from './notifications-host';

// Mantine's close button is an icon alone: name it, or a snackbar on screen fails axe (button-name).
const closeButtonProps = { 'aria-label': ENTRY_TEXTS.banners.dismiss };

/**
 * Snackbars (spec A section 8): success, warning (optional duration) and error; 6 s, at
 * most five at once, bottom right (set on the Notifications provider).
 */
function show(options: Parameters<typeof notifications.show>[0]): void {
  loadNotificationsHost().catch(() => undefined);
  notifications.show(options);
}

export const notify = {
  success(message: string) {
    show({ message, color: 'green', autoClose: SNACKBAR_DURATION_MS, closeButtonProps });
  },
  warning(message: string, durationMs: number = SNACKBAR_DURATION_MS) {
    show({ message, color: 'yellow', autoClose: durationMs, closeButtonProps });
  },
  error(message: string) {
    show({ message, color: 'red', autoClose: SNACKBAR_DURATION_MS, closeButtonProps });
  },
  /**
   * 'Error: ' plus the server's errors or message, else the generic text. The formatter
   * (core's, next to the error schema) loads on first use, keeping it off the login page.
   */
  apiError(error: unknown): Promise<void> {
    return import('../api/error-text').then(
      ({ errorText }) => notify.error(errorText(error)),
      () => notify.error(BASE_TEXTS.generic.unexpected),
    );
  },
  /** 'Error: Some of the data for this page failed to load...' */
  pageLoadFailed() {
    notify.error(BASE_TEXTS.generic.pageLoadFailed);
  },
};
