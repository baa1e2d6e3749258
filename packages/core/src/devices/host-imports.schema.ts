import { z } from 'zod';
import { ZOsFamily } from '../agent/agent-protocol.schema';
import { ZPaging } from '../paging.schema';
import { ZQueryBool } from './devices.schema';

/**
 * The add-devices menu's third-party import (`/api/servers/imports`, docs/api/
 * devices-agent-contract.md, "Host import"): a CSV of hosts exported from another tool
 * (Active Directory, an RMM, a spreadsheet) becomes rows waiting for their agent.
 */

/** Largest accepted file: 1 MiB (about 10,000 typical rows, twice the row limit). */
export const HOST_IMPORT_MAX_BYTES = 1024 * 1024;
/** Most data rows in one file; split larger exports. */
export const HOST_IMPORT_MAX_ROWS = 5000;

/**
 * The columns the import reads, by header (case, spaces, `_` and `-` ignored), each with
 * the other tools' names for it, most specific first: when a file has several (AD exports
 * both `Name` and `DNSHostName`), the first listed wins. Other columns are ignored.
 */
export const HOST_IMPORT_COLUMNS = {
  hostname: ['hostname', 'host name', 'dns hostname', 'fqdn', 'host', 'computer name', 'device name', 'name'],
  ip: ['ip', 'ip address', 'ip addresses', 'ipv4 address', 'ipv4', 'ipv6 address'],
  os: ['os', 'os family', 'operating system', 'platform'],
  group: ['group', 'server group', 'device group'],
  tags: ['tags', 'tag', 'labels'],
  serial: ['serial', 'serial number', 'service tag'],
  notes: ['notes', 'note', 'description', 'comment', 'comments'],
} as const;
export type HostImportColumn = keyof typeof HOST_IMPORT_COLUMNS;

/** The template the console offers for download: every column, two example rows. */
export const HOST_IMPORT_TEMPLATE_CSV =
  'hostname,ip,os,group,tags,serial,notes\r\n' +
  'web01.example.com,192.0.2.10,linux,Default Group,web;production,SN-0001,Front web server\r\n' +
  'FINANCE-PC-07,,Windows 11 Pro,,finance|laptop,,\r\n';

export const HOST_IMPORT_STATUSES = ['awaiting_agent', 'enrolled'] as const;
export const ZHostImportStatus = z.enum(HOST_IMPORT_STATUSES);
export type HostImportStatus = z.infer<typeof ZHostImportStatus>;

/**
 * What the import does with a row: `new` is stored (awaiting its agent); `matches_device`
 * names a device already enrolled in the zone and `duplicate` a host earlier in the file or
 * already awaiting its agent, both skipped; `error` rows are skipped with their `errors`.
 */
export const HOST_IMPORT_ROW_STATUSES = ['new', 'matches_device', 'duplicate', 'error'] as const;
export const ZHostImportRowStatus = z.enum(HOST_IMPORT_ROW_STATUSES);
export type HostImportRowStatus = z.infer<typeof ZHostImportRowStatus>;

const zoneFields = {
  /** The zone (alias `org`). */
  o: z.coerce.number().int().positive().optional(),
  /** Alias of `o`. */
  org: z.coerce.number().int().positive().optional(),
};

/** `POST /api/servers/imports?o=&dry_run=` (multipart, one file part). */
export const ZHostImportQuery = z
  .object({
    ...zoneFields,
    /** Validate and answer the rows' results without writing anything. Default false. */
    dry_run: ZQueryBool.optional(),
  })
  .loose()
  .transform(({ o, org, dry_run, ...rest }) => ({ ...rest, o: o ?? org, dry_run: dry_run ?? false }));
export type HostImportQuery = z.infer<typeof ZHostImportQuery>;

/** One data row of the file as the import understood it. */
export const ZHostImportRow = z.object({
  /** Line of the file the row ends on (the header is line 1). */
  line: z.number().int(),
  /** Host name, lowercased; as given (trimmed) when it is invalid. */
  hostname: z.string(),
  /** IP addresses (one cell may hold several, separated by `;`, `|`, `,` or spaces). */
  ip_addrs: z.array(z.string()),
  /** OS family mapped from the free text; null when empty or not recognised (see `warnings`). */
  os_family: ZOsFamily.nullable(),
  /** The group's id; null for the zone's default group. */
  server_group_id: z.number().int().nullable(),
  /** The group as named in the file ('' for none). */
  group_name: z.string(),
  /** Tags (separated by `;` or `|` in the file), trimmed and deduplicated. */
  tags: z.array(z.string()),
  /** Serial number. */
  serial: z.string(),
  /** Notes; stored as text, never evaluated. */
  notes: z.string(),
  status: ZHostImportRowStatus,
  /** Why an `error` row is skipped, or why a `matches_device`/`duplicate` row is. */
  errors: z.array(z.string()),
  /** What was ignored in a row that is still imported (an unknown OS). */
  warnings: z.array(z.string()),
  /** For `matches_device`: the enrolled device. */
  device_id: z.number().int().nullable(),
});
export type HostImportRow = z.infer<typeof ZHostImportRow>;

/** The answer of a dry run and of an import. */
export const ZHostImportResult = z.object({
  /** True when nothing was written. */
  dry_run: z.boolean(),
  rows: z.array(ZHostImportRow),
  summary: z.object({
    /** Data rows read. */
    total: z.number().int(),
    new: z.number().int(),
    matches_device: z.number().int(),
    duplicate: z.number().int(),
    error: z.number().int(),
    /** Rows written (0 on a dry run). */
    imported: z.number().int(),
  }),
  /** Headers of the file the import does not read. */
  ignored_columns: z.array(z.string()),
});
export type HostImportResult = z.infer<typeof ZHostImportResult>;

/** `GET /api/servers/imports?o=&status=&search=&page=&limit=`. */
export const ZListHostImportsQuery = z
  .object({
    ...zoneFields,
    ...ZPaging.shape,
    /** Only rows in this state. */
    status: ZHostImportStatus.optional(),
    /** Substring of the host name. */
    search: z.string().max(200).optional(),
  })
  .loose()
  .transform(({ o, org, ...rest }) => ({ ...rest, o: o ?? org }));
export type ListHostImportsQuery = z.infer<typeof ZListHostImportsQuery>;

/** An imported host. */
export const ZHostImport = z.object({
  id: z.number().int(),
  /** Lowercased host name. */
  hostname: z.string(),
  ip_addrs: z.array(z.string()),
  os_family: ZOsFamily.nullable(),
  /** The group the device will join; null: the zone's default group. */
  server_group_id: z.number().int().nullable(),
  /** That group's name; null for the default group. */
  group_name: z.string().nullable(),
  tags: z.array(z.string()),
  serial: z.string(),
  notes: z.string(),
  /** The importing user's id (null once that user is deleted). */
  imported_by: z.number().int().nullable(),
  /** ISO 8601. */
  imported_at: z.string(),
  status: ZHostImportStatus,
  /** The device that enrolled for it. */
  enrolled_device_id: z.number().int().nullable(),
  /** ISO 8601; null while awaiting. */
  enrolled_at: z.string().nullable(),
});
export type HostImport = z.infer<typeof ZHostImport>;

export const ZHostImportList = z.object({
  data: z.array(ZHostImport),
  /** Rows matching the filters. */
  size: z.number().int(),
});
export type HostImportList = z.infer<typeof ZHostImportList>;

/** `DELETE /api/servers/imports/{id}`. */
export const ZHostImportIdParams = z.object({
  /** Import row id. */
  id: z.coerce.number().int().positive(),
});
