import type {
  BatchIssueList,
  BatchIssuesQuery,
  BatchPageQuery,
  BatchSolution,
  BatchUnknownHost,
  BatchVulnerability,
} from '@patchwell/core/remediation/batches.schema';
import type { RemediationSeverity } from '@patchwell/core/remediation/scanners.schema';
import type { AppContext } from '../../../context';
import type { Authz } from '../../../domain/authz';
import { batchZone, zoneBatch } from './batches.service';
import { findIssues, findUnknownHosts, findVulnerabilities } from './batch-findings.store';
import { findSolutions } from './batches.store';

/**
 * What a batch's review shows (Task.read): its potential issues, and the remediations
 * view's tabs (vulnerabilities, solutions, unknown hosts). Each list is paged; while the
 * batch is building they are empty, since nothing is matched yet.
 */

type Params = { orgId: number; batchId: number };
type Page<T> = { data: T[]; size: number };

const pageOf = (q: { page: number; limit: number }) => ({ offset: q.page * q.limit, limit: q.limit });

async function batchOf(ctx: AppContext, authz: Authz, params: Params, o: number | undefined) {
  const zone = await batchZone(ctx, authz, params.orgId, o, 'read');
  return zoneBatch(ctx, zone.id, params.batchId);
}

/** `GET .../batches/{batchId}/issues?page&limit&issue`: rows that did not become a remediation, in file order. */
export async function listBatchIssues(
  ctx: AppContext,
  authz: Authz,
  params: Params,
  query: BatchIssuesQuery,
): Promise<BatchIssueList> {
  const batch = await batchOf(ctx, authz, params, query.o);
  const { rows, size } = await findIssues(ctx.db, batch.id, query.issue, pageOf(query));
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      device: r.device_id,
      hostname: r.hostname,
      // The scanner's addresses; the matched device's when the row gave none (a name only).
      ip_addrs_private: r.ip_addrs.length ? r.ip_addrs : (r.device_ips ?? []),
      patch_id: r.cve,
      issue: r.issue,
      line: r.line,
    })),
    size,
  };
}

/** `GET .../batches/{batchId}/vulnerabilities`: the file's CVEs, worst first. */
export async function listBatchVulnerabilities(
  ctx: AppContext,
  authz: Authz,
  params: Params,
  query: BatchPageQuery,
): Promise<Page<BatchVulnerability>> {
  const batch = await batchOf(ctx, authz, params, query.o);
  const { rows, size } = await findVulnerabilities(ctx.db, batch.id, pageOf(query));
  return {
    data: rows.map((r) => ({
      cve: r.cve,
      severity: r.severity as RemediationSeverity,
      severity_raw: r.severity_raw,
      cvss: r.cvss === null ? null : Math.round(Number(r.cvss) * 10) / 10,
      title: r.title,
      device_count: Number(r.device_count),
      remediable_device_count: Number(r.remediable_device_count),
      solution_ids: r.solution_ids.map(Number),
    })),
    size,
  };
}

/** `GET .../batches/{batchId}/solutions`: the remediations accepting the batch turns into tasks. */
export async function listBatchSolutions(
  ctx: AppContext,
  authz: Authz,
  params: Params,
  query: BatchPageQuery,
): Promise<Page<BatchSolution>> {
  const batch = await batchOf(ctx, authz, params, query.o);
  const { rows, size } = await findSolutions(ctx.db, batch.id, pageOf(query));
  return {
    data: rows.map((s) => ({
      id: s.id,
      kind: s.kind,
      patch_name: s.patchName,
      worklet_id: s.workletId,
      title: s.title,
      severity: s.severity,
      cves: s.cves,
      device_ids: s.deviceIds,
      device_count: s.deviceIds.length,
    })),
    size,
  };
}

/** `GET .../batches/{batchId}/unknown-hosts`: the file's hosts with no device in the zone ('Unknown Hosts'). */
export async function listBatchUnknownHosts(
  ctx: AppContext,
  authz: Authz,
  params: Params,
  query: BatchPageQuery,
): Promise<Page<BatchUnknownHost>> {
  const batch = await batchOf(ctx, authz, params, query.o);
  const { rows, size } = await findUnknownHosts(ctx.db, batch.id, pageOf(query));
  return {
    data: rows.map((r) => ({ hostname: r.hostname, ip_addrs_private: r.ip_addrs, os: r.os, cves: r.cves })),
    size,
  };
}
