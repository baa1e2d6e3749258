import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { banners, featureFlags } from '../../db/schema';

/** Banners active at `now`: started, and not yet ended (or open-ended). */
export async function findActiveBanners(db: Db, now: Date) {
  return db
    .select({ id: banners.id, message: banners.message, messagetype: banners.messagetype })
    .from(banners)
    .where(and(lte(banners.startsAt, now), or(isNull(banners.endsAt), gt(banners.endsAt, now))))
    .orderBy(asc(banners.startsAt), asc(banners.id));
}

/** Flag overrides of an account (organization_id null) and of one of its zones. */
export async function findFlags(db: Db, accountId: number, zoneId: number | null) {
  return db
    .select({ organizationId: featureFlags.organizationId, name: featureFlags.name, enabled: featureFlags.enabled })
    .from(featureFlags)
    .where(
      and(
        eq(featureFlags.accountId, accountId),
        zoneId === null
          ? isNull(featureFlags.organizationId)
          : or(isNull(featureFlags.organizationId), eq(featureFlags.organizationId, zoneId)),
      ),
    );
}
