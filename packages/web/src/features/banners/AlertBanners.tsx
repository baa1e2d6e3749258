import type { Banner } from '@patchwell/core/shell/banner.schema';
import { IconAlertTriangle, IconInfoCircle, IconTool, IconPlugConnected } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { dismissBanner, dismissedBannerIds } from '../../app/storage';
import { StatusBanner } from '../../ui/StatusBanner';
import { BANNER_COLORS } from './banner-colors';

const ICONS: Record<Banner['messagetype'], ReactNode> = {
  danger: <IconAlertTriangle size={18} aria-hidden="true" />,
  warning: <IconAlertTriangle size={18} aria-hidden="true" />,
  maintenance: <IconTool size={18} aria-hidden="true" />,
  info: <IconInfoCircle size={18} aria-hidden="true" />,
  thirdparty: <IconPlugConnected size={18} aria-hidden="true" />,
};

/** The server's alert banners, each dismissible for the rest of the browser session. */
export function AlertBanners({ banners }: { banners: readonly Banner[] | undefined }) {
  const [dismissed, setDismissed] = useState<number[]>(dismissedBannerIds);
  const visible = (banners ?? []).filter((b) => !dismissed.includes(b.id));
  return (
    <>
      {visible.map((banner) => (
        <div key={banner.id} data-banner-type={banner.messagetype}>
          <StatusBanner
            message={banner.message}
            color={BANNER_COLORS[banner.messagetype]}
            icon={ICONS[banner.messagetype]}
            onDismiss={() => {
              dismissBanner(banner.id);
              setDismissed((ids) => [...ids, banner.id]);
            }}
          />
        </div>
      ))}
    </>
  );
}
