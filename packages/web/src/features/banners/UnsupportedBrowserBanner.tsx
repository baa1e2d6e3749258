import { IconBrowserX } from '@tabler/icons-react';
import { useState, useSyncExternalStore } from 'react';
import { dismissUnsupportedBrowser, isUnsupportedBrowserDismissed } from '../../app/storage';
import { CONSOLE_TEXTS } from '../../texts';
import { StatusBanner } from '../../ui/StatusBanner';
import { isLegacyBrowser } from './browser-support';

/** A browser's features do not change while a page is open. */
const unchanging = () => () => undefined;

/** Tells users of a legacy browser that it is unsupported; dismissal lasts for the session. */
export function UnsupportedBrowserBanner({ isLegacy = isLegacyBrowser }: { isLegacy?: () => boolean }) {
  // The browser is not known when the server draws a page (ssr/render-page.tsx): hydrating
  // starts from the server's answer (no banner), then React asks the browser.
  const isLegacyHere = useSyncExternalStore(
    unchanging,
    () => isLegacy() && !isUnsupportedBrowserDismissed(),
    () => false,
  );
  const [isDismissed, setDismissed] = useState(false);
  if (!isLegacyHere || isDismissed) return null;
  return (
    <StatusBanner
      message={CONSOLE_TEXTS.banners.unsupportedBrowser}
      color="yellow"
      icon={<IconBrowserX size={18} aria-hidden="true" />}
      onDismiss={() => {
        dismissUnsupportedBrowser();
        setDismissed(true);
      }}
    />
  );
}
