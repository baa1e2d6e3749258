import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { BatchIssueType } from '@patchwell/core/remediation/batches.schema';
import type { Db } from '../../../db/client';
import { copyRowsIn } from '../../../db/raw';
import {
  remediationBatches,
  remediationBatchUploads,
  remediationFindings,
  remediationSolutions,
} from '../../../db/remediation.schema';
import { devices } from '../../../db/devices.schema';
import { rowsOf, severityRank, type Exec, type Tx } from './batches.store';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * A batch's findings: staged as the file is read (`remediation_batch_uploads`), written once
 * to `remediation_findings` by its build with what matching made of each, and what the review
 * reads from them (potential issues, CVEs, unknown hosts, the batch's CSV). Only the batches
 * module writes them.
 */

export type NewFinding = {
  line: number;
  hostname: string;
  fqdn: string | null;
  ipAddrs: string[];
  os: string | null;
  cve: string;
  severity: string;
  severityRaw: string;
  cvss: number | null;
  title: string;
  solutionText: string | null;
};

/** What matching made of a finding (all null while unmatched, as a batch that failed to build keeps them). */
export type FindingOutcome = {
  deviceId: number | null;
  matchedBy: 'hostname' | 'fqdn' | 'ip' | null;
  issue: BatchIssueType | null;
  solutionId: number | null;
};

/**
 * Keeps an upload's findings until its batch is built: one value in one statement, where
 * 20,000 rows (and their indexes) would be written now and rewritten by the build. Zipped
 * here (off the event loop) so the database neither parses nor compresses 7 MB of JSON.
 */
export async function stageFindings(exec: Exec, batchId: number, rows: NewFinding[]): Promise<void> {
  const zipped = await gzipAsync(JSON.stringify(rows), { level: 1 });
  await exec.insert(remediationBatchUploads).values({ batchId, findings: zipped.toString('base64') });
}

/** The findings an upload staged for batch `batchId`; undefined once they are written (or never were). */
export async function findStagedFindings(exec: Exec, batchId: number): Promise<NewFinding[] | undefined> {
  const [row] = await exec
    .select({ findings: remediationBatchUploads.findings })
    .from(remediationBatchUploads)
    .where(eq(remediationBatchUploads.batchId, batchId));
  if (!row) return undefined;
  // Plain JSON: staged by the migration from a batch the previous version left building.
  const json = row.findings.startsWith('[')
    ? row.findings
    : (await gunzipAsync(Buffer.from(row.findings, 'base64'))).toString('utf8');
  return JSON.parse(json) as NewFinding[];
}

export async function deleteStagedFindings(exec: Exec, batchId: number): Promise<void> {
  await exec.delete(remediationBatchUploads).where(eq(remediationBatchUploads.batchId, batchId));
}

const UNMATCHED: FindingOutcome = { deviceId: null, matchedBy: null, issue: null, solutionId: null };

/**
 * Writes the file's findings with what matching made of each (`outcomes[i]` is `rows[i]`'s;
 * none: unmatched), in file order, so their ids follow the file: one COPY for all of them.
 */
export async function insertFindings(
  exec: Exec,
  batchId: number,
  zoneId: number,
  rows: NewFinding[],
  outcomes?: FindingOutcome[],
): Promise<void> {
  await copyRowsIn(
    exec,
    'remediation_findings',
    [
      'batch_id',
      'organization_id',
      'line',
      'hostname',
      'fqdn',
      'ip_addrs',
      'os',
      'cve',
      'severity',
      'severity_raw',
      'cvss',
      'title',
      'solution_text',
      'device_id',
      'matched_by',
      'issue',
      'solution_id',
    ],
    rows.map((f, i) => {
      const outcome = outcomes?.[i] ?? UNMATCHED;
      return [
        batchId,
        zoneId,
        f.line,
        f.hostname,
        f.fqdn,
        f.ipAddrs,
        f.os,
        f.cve,
        f.severity,
        f.severityRaw,
        f.cvss,
        f.title,
        f.solutionText,
        outcome.deviceId,
        outcome.matchedBy,
        outcome.issue,
        outcome.solutionId,
      ];
    }),
  );
}

export type IssueRow = {
  id: number;
  device_id: number | null;
  hostname: string;
  ip_addrs: string[];
  device_ips: string[] | null;
  cve: string;
  issue: BatchIssueType;
  line: number;
};

/** A page of the batch's potential issues, in file order. */
export async function findIssues(
  db: Db,
  batchId: number,
  issue: BatchIssueType | undefined,
  page: { offset: number; limit: number },
): Promise<{ rows: IssueRow[]; size: number }> {
  const where = and(
    eq(remediationFindings.batchId, batchId),
    issue ? eq(remediationFindings.issue, issue) : isNotNull(remediationFindings.issue),
  );
  const rows = await rowsOf<IssueRow>(
    db,
    sql`select f.id, f.device_id, f.hostname, f.ip_addrs, d.ip_addrs_private as device_ips, f.cve, f.issue, f.line
        from ${remediationFindings} f left join ${devices} d on d.id = f.device_id
        where f.batch_id = ${batchId} and ${issue ? sql`f.issue = ${issue}` : sql`f.issue is not null`}
        order by f.id offset ${page.offset} limit ${page.limit}`,
  );
  const [total] = await db.select({ n: count() }).from(remediationFindings).where(where);
  return { rows, size: total?.n ?? 0 };
}

export type VulnerabilityRow = {
  cve: string;
  severity: string;
  severity_raw: string;
  cvss: number | null;
  title: string;
  device_count: number;
  remediable_device_count: number;
  solution_ids: number[];
};

/** A page of the batch's CVEs, worst first: the scanner's worst severity, how many devices, which solutions. */
export async function findVulnerabilities(
  db: Db,
  batchId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: VulnerabilityRow[]; size: number }> {
  const rows = await rowsOf<VulnerabilityRow>(
    db,
    sql`with v as (
          select cve,
            (array_agg(severity order by ${severityRank(sql`severity`)} desc))[1] as severity,
            (array_agg(severity_raw order by ${severityRank(sql`severity`)} desc))[1] as severity_raw,
            max(cvss) as cvss,
            coalesce((array_agg(title order by line) filter (where title <> ''))[1], '') as title,
            count(distinct device_id) filter (where issue is distinct from 'duplicate_host')::int as device_count,
            count(distinct device_id) filter (where solution_id is not null)::int as remediable_device_count
          from ${remediationFindings} where batch_id = ${batchId} group by cve
        )
        select v.*, array(select s.id from ${remediationSolutions} s
            where s.batch_id = ${batchId} and v.cve = any(s.cves) order by s.id) as solution_ids
        from v order by ${severityRank(sql`v.severity`)} desc, v.remediable_device_count desc, v.cve
        offset ${page.offset} limit ${page.limit}`,
  );
  const [total] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct cve)::int as n from ${remediationFindings} where batch_id = ${batchId}`,
  );
  return { rows, size: total?.n ?? 0 };
}

export type UnknownHostRow = { hostname: string; ip_addrs: string[]; os: string | null; cves: string[] };

/** A page of the file's hosts that name no device of the zone, by name. */
export async function findUnknownHosts(
  db: Db,
  batchId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: UnknownHostRow[]; size: number }> {
  const unknown = sql`batch_id = ${batchId} and issue = 'unknown_host'`;
  const rows = await rowsOf<UnknownHostRow>(
    db,
    sql`with hosts as (
          select lower(hostname) as key, min(hostname) as hostname, max(os) as os,
            array_agg(distinct cve order by cve) as cves
          from ${remediationFindings} where ${unknown}
          group by lower(hostname) order by lower(hostname) offset ${page.offset} limit ${page.limit}
        )
        select h.hostname, h.os, h.cves,
          array(select distinct ip from ${remediationFindings} f, unnest(f.ip_addrs) as ip
            where f.batch_id = ${batchId} and f.issue = 'unknown_host' and lower(f.hostname) = h.key
            order by ip) as ip_addrs
        from hosts h order by h.key`,
  );
  const [total] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct lower(hostname))::int as n from ${remediationFindings} where ${unknown}`,
  );
  return { rows, size: total?.n ?? 0 };
}

/**
 * Findings of the batch on devices removed since it was built become `unsupported_host`
 * (there is nothing left to remediate). Returns the removed devices' ids.
 */
export async function markRemovedDevicesUnsupported(tx: Tx, batchId: number): Promise<number[]> {
  const rows = await rowsOf<{ device_id: number }>(
    tx,
    // The zone's removed devices first (usually none): joining every finding to its device
    // probed the devices' index 10,000 times for a 20,000-row batch.
    sql`update ${remediationFindings} f set issue = 'unsupported_host', solution_id = null
        where f.batch_id = ${batchId} and f.issue is null
          and f.device_id = any(array(
            select d.id from ${devices} d join ${remediationBatches} b on b.organization_id = d.organization_id
             where b.id = ${batchId} and d.removed_at is not null))
        returning f.device_id`,
  );
  return [...new Set(rows.map((r) => r.device_id))];
}

export type CsvFindingRow = {
  id: number;
  line: number;
  hostname: string;
  fqdn: string | null;
  ip_addrs: string[];
  os: string | null;
  cve: string;
  severity: string;
  severity_raw: string;
  cvss: number | null;
  title: string;
  device_id: number | null;
  device_hostname: string | null;
  matched_by: string | null;
  issue: string | null;
  solution_kind: string | null;
  solution_title: string | null;
};

/**
 * A page of the batch's processed rows for its CSV after finding `afterId`: in file order,
 * which is id order (findings are inserted as the file is read).
 */
export async function findCsvRows(db: Db, batchId: number, afterId: number, limit: number): Promise<CsvFindingRow[]> {
  return rowsOf<CsvFindingRow>(
    db,
    sql`select f.id, f.line, f.hostname, f.fqdn, f.ip_addrs, f.os, f.cve, f.severity, f.severity_raw, f.cvss, f.title,
          f.device_id, coalesce(d.custom_name, d.hostname) as device_hostname, f.matched_by, f.issue,
          s.kind as solution_kind, s.title as solution_title
        from ${remediationFindings} f
        left join ${devices} d on d.id = f.device_id
        left join ${remediationSolutions} s on s.id = f.solution_id
        where f.batch_id = ${batchId} and f.id > ${afterId}
        order by f.id limit ${limit}`,
  );
}
