import { ZProfile, type Profile } from '@patchwell/core/auth/profile.schema';
import { CONSOLE_PROFILE_ELEMENT_ID } from '@patchwell/core/constants';
import { ZBannerList, type Banner } from '@patchwell/core/shell/banner.schema';
import { takeDataBlock } from './data-block';

/** The address the document was loaded from (history changes do not move it), if known. */
function documentUrl(): string | undefined {
  const [entry] = performance.getEntriesByType?.('navigation') ?? [];
  return entry?.name;
}

const pathAndQuery = (href: string) => {
  const url = new URL(href, window.location.href);
  return url.pathname + url.search;
};

/** What a signed-in page came with: the profile, and the alert banners when the server could read them. */
export type PageProfile = { profile: Profile; banners: Banner[] | undefined };

/**
 * The profile and banners the server sent with the page (server/src/http/console-profile.ts),
 * for the signed-in route's first loader: taken once, and only for the address the document
 * was loaded from and the zone it asked for. Any later loader asks the server: the data block
 * belongs to the session of the page's load, and by then the user may have signed out, or in
 * as someone else (an invitation accepted in the same tab). Undefined when the page came
 * without one, or it is not for this request, or not a profile (banners that are not a list
 * of banners are left out: the shell asks for them).
 */
export function takePageProfile(
  requestUrl: string,
  requested: number | undefined,
  loadedFrom: string | undefined = documentUrl(),
): PageProfile | undefined {
  const data = takeDataBlock(CONSOLE_PROFILE_ELEMENT_ID) as
    { o?: unknown; profile?: unknown; banners?: unknown } | undefined;
  if (typeof data !== 'object' || data === null) return undefined;
  if (loadedFrom === undefined || pathAndQuery(loadedFrom) !== pathAndQuery(requestUrl)) return undefined;
  if ((data.o ?? undefined) !== requested) return undefined;
  const profile = ZProfile.safeParse(data.profile);
  if (!profile.success) return undefined;
  const banners = ZBannerList.safeParse(data.banners);
  return { profile: profile.data, banners: banners.success ? banners.data : undefined };
}
