/**
 * The demo's sample vulnerability scan: once a demo zone's simulated devices have sent their
 * inventories, a Qualys export written from their own pending patches (and one host with no
 * agent) is uploaded and accepted through the batches service, so the remediations, tasks
 * and CVE pages show real data on a first start. Its tasks wait for someone to execute them.
 */
import { Readable } from 'node:stream';
import type { SimMachine } from '@patchwell/agent/simulate/inventory';
import { PATCH_SEVERITIES } from '@patchwell/core/agent/agent-protocol.schema';
import { createAuthz, type Authz } from '../../domain/authz';
import { appError } from '../../domain/errors';
import { findZoneAccess } from '../auth/sessions.store';
import {
  acceptBatch,
  getBatch,
  listBatches,
  uploadBatch,
  type BatchContext,
} from '../remediation/batches/batches.service';
import { findUserByEmail } from '../users/users.store';
import { DEMO_LONG_POLL_DEVICES, type DemoFleet, type DemoFleetZone } from './demo.fleet';
import { DEMO_ADMIN_EMAIL } from './demo.seed';

/** The scan names this many devices of a zone, with this many of each one's worst patches. */
const SCAN_DEVICES = 5;
const PATCHES_PER_DEVICE = 2;
/** Cumulative updates list dozens of CVEs: the sample keeps to patches a reader can follow. */
const MAX_CVES_PER_PATCH = 5;
export const DEMO_SCAN_FILE_NAME = 'qualys-demo-scan.csv';
/** How often, and how many times, to look for the devices' first inventories before giving up (2 min). */
const REPORT_POLL_MS = 500;
const REPORT_POLLS = 240;

const QUALYS_LEVEL: Record<string, string> = { critical: '5', high: '4', medium: '3', low: '2' };
const CVSS: Record<string, string> = { critical: '9.8', high: '8.1', medium: '5.9', low: '3.7' };

const quoted = (cells: string[]) => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');
const rank = (severity: string) => PATCH_SEVERITIES.indexOf(severity as (typeof PATCH_SEVERITIES)[number]);

/**
 * A Qualys VM host-based findings export of the machines' pending patches: the last
 * {@link SCAN_DEVICES} machines with patches carrying CVEs, one row per patch with its CVEs,
 * and a printer with no agent, which becomes an unknown host. The long-polling first devices
 * (which answer commands at once, so a person trying an upload of their own gets quick
 * results) are left out while others are there.
 */
export function demoScanCsv(machines: readonly SimMachine[], scannedAt: Date): string {
  const rows: string[] = [];
  const eligible = machines
    .map((m) => ({
      m,
      patches: m.patches
        .filter((p) => p.cves.length > 0 && p.cves.length <= MAX_CVES_PER_PATCH && QUALYS_LEVEL[p.severity])
        .sort((a, b) => rank(a.severity) - rank(b.severity))
        .slice(0, PATCHES_PER_DEVICE),
    }))
    .filter(({ patches }) => patches.length > 0);
  const others = eligible.filter(({ m }) => m.index >= DEMO_LONG_POLL_DEVICES);
  const scanned = (others.length > 0 ? others : eligible).slice(-SCAN_DEVICES);
  for (const [i, { m, patches }] of scanned.entries()) {
    const s = m.system;
    for (const [j, p] of patches.entries()) {
      rows.push(
        quoted([
          m.ipPrivate,
          // Scanners name hosts as DNS resolves them: some by FQDN, some by short name.
          i % 2 === 0 ? s.fqdn.toLowerCase() : s.hostname.toLowerCase(),
          s.hostname.split('.')[0]!.toUpperCase(),
          s.fqdn,
          s.os_name,
          String(370_000 + i * 10 + j),
          `Security update for ${p.name} (${p.version})`,
          QUALYS_LEVEL[p.severity]!,
          p.cves.join(', '),
          CVSS[p.severity]!,
          `Update ${p.name} to ${p.version} or later.`,
        ]),
      );
    }
  }
  const someCve = scanned[0]?.patches[0]?.cves[0] ?? 'CVE-2024-6387';
  rows.push(
    quoted([
      '10.20.90.15',
      'prn-floor2-01.corp.example.com',
      'PRN-FLOOR2-01',
      'prn-floor2-01.corp.example.com',
      'Embedded Linux',
      '370999',
      'Printer firmware vulnerable to remote code execution',
      '4',
      someCve,
      '8.1',
      'Update the printer firmware.',
    ]),
  );
  // Qualys dates its report as 11/25/2026 at 02:00:11 (GMT).
  const [y, mo, d] = scannedAt.toISOString().slice(0, 10).split('-');
  const stamp = `${mo}/${d}/${y} at ${scannedAt.toISOString().slice(11, 19)} (GMT)`;
  return [
    quoted(['Scan Results', stamp]),
    '',
    quoted(['IP', 'DNS', 'NetBIOS', 'FQDN', 'OS', 'QID', 'Title', 'Severity', 'CVE ID', 'CVSS3 Base', 'Solution']),
    ...rows,
    '',
  ].join('\r\n');
}

/** The demo administrator's authorization, as their session would have it. */
async function demoAdmin(ctx: BatchContext): Promise<Authz | undefined> {
  const admin = await findUserByEmail(ctx.db, DEMO_ADMIN_EMAIL);
  if (!admin?.accountId) return undefined;
  const { roles } = await findZoneAccess(ctx.db, admin.id);
  return createAuthz(
    { accountId: admin.accountId, isGlobalAdmin: admin.accountRbacRole === 'global-admin', zoneRoles: roles },
    admin.id,
    'session',
  );
}

/**
 * Uploads and accepts the zone's sample scan as the demo administrator; nothing when the
 * zone already has a batch (a restart on the same data, or someone was quicker).
 * @returns the batch id, or undefined when nothing was imported.
 */
export async function seedDemoScan(ctx: BatchContext, zone: DemoFleetZone): Promise<number | undefined> {
  const authz = await demoAdmin(ctx);
  if (!authz) return undefined;
  const o = zone.zoneId;
  if ((await listBatches(ctx, authz, o, { o, page: 0, limit: 1 })).size > 0) return undefined;
  const csv = Buffer.from(demoScanCsv(zone.machines(), ctx.clock.now()));
  const batch = await uploadBatch(ctx, authz, { orgId: o, type: 'patch' }, { o, source: 'qualys' }, () =>
    Promise.resolve({
      filename: DEMO_SCAN_FILE_NAME,
      mimetype: 'text/csv',
      upload: { stream: Readable.from([csv]), isTruncated: () => false, tooLarge: () => appError('batches.too_large') },
    }),
  );
  await ctx.batchBuilder.idle();
  const built = await getBatch(ctx, authz, { orgId: o, batchId: batch.id }, o);
  if (built.status !== 'ready') return undefined;
  await acceptBatch(ctx, authz, { orgId: o, batchId: batch.id }, o);
  return batch.id;
}

/**
 * Imports each demo zone's sample scan once its devices have reported, in the background;
 * `stop()` ends the waiting (at shutdown) and lets an import in progress finish.
 */
export function startDemoScans(ctx: BatchContext, fleet: DemoFleet): { stop(): Promise<void> } {
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  const run = (async () => {
    for (const zone of fleet.zones) {
      for (let i = 0; i < REPORT_POLLS && !isStopped && !zone.isReported(); i++) await pause(REPORT_POLL_MS);
      if (isStopped) return;
      try {
        const batchId = await seedDemoScan(ctx, zone);
        if (batchId) ctx.logger.debug({ zone: zone.name, batchId }, 'demo scan imported');
      } catch (err) {
        ctx.logger.warn({ err, zone: zone.name }, 'cannot import the demo’s sample scan');
      }
    }
  })();
  return {
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      wake?.();
      await run;
    },
  };
}
