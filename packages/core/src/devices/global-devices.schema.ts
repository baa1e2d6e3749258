import { z } from 'zod';
import { ZPaging } from '../paging.schema';
import { ZDevice } from './devices.schema';

/**
 * The global devices list (`GET /api/accounts/{accountId}/devices`, spec A section 2
 * "/global/devices"): every device of every zone of the account, for its global administrators.
 */

/** Fields the global list sorts by. */
export const GLOBAL_DEVICE_SORT_FIELDS = [
  'name',
  'zone_name',
  'os_name',
  'group_name',
  'last_seen_at',
  'pending_patches',
  'compliance',
] as const;
export type GlobalDeviceSortField = (typeof GLOBAL_DEVICE_SORT_FIELDS)[number];

/** `GET /api/accounts/{accountId}/devices?page=&limit=&sort=&search=`. */
export const ZGlobalDevicesQuery = z
  .object({
    ...ZPaging.shape,
    /** `field:asc|desc`, field one of GLOBAL_DEVICE_SORT_FIELDS. Default `name:asc`. */
    sort: z
      .string()
      .regex(new RegExp(`^(${GLOBAL_DEVICE_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Invalid sort.')
      .optional(),
    /** Substring of the name, host name, custom name, an IP address, or the zone's name. */
    search: z.string().max(200).optional(),
  })
  .loose();
export type GlobalDevicesQuery = z.infer<typeof ZGlobalDevicesQuery>;

/** A device row of the global list: the zone's row plus the zone it belongs to. */
export const ZGlobalDevice = ZDevice.extend({
  /** The device's zone. */
  zone_id: z.number().int(),
  /** The zone's name. */
  zone_name: z.string(),
});
export type GlobalDevice = z.infer<typeof ZGlobalDevice>;

/** `{ data, size }` of the global list. */
export const ZGlobalDeviceList = z.object({
  /** The page's rows. */
  data: z.array(ZGlobalDevice),
  /** Total rows matching the search. */
  size: z.number().int(),
});
export type GlobalDeviceList = z.infer<typeof ZGlobalDeviceList>;
