import type {
  WorkletCatalogEntry,
  WorkletCatalogList,
  WorkletCatalogQuery,
} from '@patchwell/core/worklets/worklet-catalog.schema';
import { queryWorkletCatalog } from '@patchwell/core/worklets/worklet-rules';
import { roleAllows } from '@patchwell/core/zones/roles';
import type { AppContext } from '../../context';
import type { Authz } from '../../domain/authz';
import { forbidden, notFound } from '../../domain/errors';
import { requireZone } from '../zones/zone-access.service';
import { findWorkletCatalogEntry, loadWorkletCatalog } from './worklet-catalog.loader';

/**
 * CustomPolicy.read in zone `o`; without `o` (spec B section 7 calls the catalogue with no
 * zone), in at least one zone the caller may enter. The catalogue is the same shipped content
 * in every zone, so which zone allows the read does not matter. A key bound to one zone
 * stands for that zone.
 */
async function requireCatalogueRead(ctx: AppContext, authz: Authz, o: number | undefined): Promise<void> {
  const { actor } = authz;
  if (o !== undefined || actor.onlyZoneId != null) {
    await requireZone(ctx, authz, o, 'CustomPolicy', 'read');
    return;
  }
  const may = (role: { roleId: number | null; isGlobalAdmin: boolean }) => roleAllows(role, 'CustomPolicy', 'read');
  const allowed =
    (actor.isGlobalAdmin && actor.accountId !== null && may({ roleId: null, isGlobalAdmin: true })) ||
    actor.zoneRoles.some((r) => may({ roleId: r.roleId, isGlobalAdmin: false }));
  if (!allowed) throw forbidden();
  authz.allow('the catalogue is the same in every zone; the caller may read it in one of theirs');
}

/** `GET /api/worklet-catalog` (CustomPolicy.read in the zone `o`): the shipped catalogue, filtered and paged. */
export async function listWorkletCatalog(
  ctx: AppContext,
  authz: Authz,
  query: WorkletCatalogQuery & { o?: number },
): Promise<WorkletCatalogList> {
  await requireCatalogueRead(ctx, authz, query.o);
  return queryWorkletCatalog(loadWorkletCatalog(), query);
}

/** `GET /api/worklet-catalog/{id}` by slug or UUID. */
export async function getWorkletCatalogEntry(
  ctx: AppContext,
  authz: Authz,
  o: number | undefined,
  id: string,
): Promise<WorkletCatalogEntry> {
  await requireCatalogueRead(ctx, authz, o);
  const entry = findWorkletCatalogEntry(id);
  if (!entry) throw notFound();
  return entry;
}

/**
 * The shipped entry by slug, UUID or number, for other modules that run its code (a
 * remediation task's worklet); no permission check: the caller's service made its own.
 */
export function catalogueWorklet(id: string): WorkletCatalogEntry | null {
  return findWorkletCatalogEntry(id);
}
