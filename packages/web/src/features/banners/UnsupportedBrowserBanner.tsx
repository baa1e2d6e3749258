import { IconBrowserX } from '@tabler/icons-react';
import { useState } from 'react';
import { dismissUnsupportedBrowser, isUnsupportedBrowserDismissed } from '../../app/storage';
import { CONSOLE_TEXTS } from '../../texts';
import { StatusBanner } from '../../ui/StatusBanner';
import { isLegacyBrowser } from './browser-support';

/** Tells users of a legacy browser that it is unsupported; dismissal lasts for the session. */
export function UnsupportedBrowserBanner({ isLegacy = isLegacyBrowser }: { isLegacy?: () => boolean }) {
  const [isShown, setShown] = useState(() => isLegacy() && !isUnsupportedBrowserDismissed());
  if (!isShown) return null;
  return (
    <StatusBanner
      message={CONSOLE_TEXTS.banners.unsupportedBrowser}
      color="yellow"
      icon={<IconBrowserX size={18} aria-hidden="true" />}
      onDismiss={() => {
        dismissUnsupportedBrowser();
        setShown(false);
      }}
    />
  );
}
