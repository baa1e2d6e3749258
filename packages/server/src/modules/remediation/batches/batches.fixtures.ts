import { readFileSync } from 'node:fs';
import type { InventoryPatch, OsFamily } from '@patchwell/core/agent/agent-protocol.schema';
import type { ScannerSource } from '@patchwell/core/remediation/scanners.schema';
import type { JsonBody, TestApp } from '../../../test/app';
import { agentCall, checkinAs, enrollDevice, flushLastSeen, inventoryBody } from '../../../test/agents';
import type { Caller } from '../../../test/authz-helpers';

/**
 * The devices the sample scanner files (`samples/*.csv`) name, enrolled through the agent API
 * with inventories whose pending patches carry the CVEs that fix what the scanners report.
 * The samples also name a host with no agent (kiosk-lobby-01), a CVE no patch or worklet
 * fixes (CVE-2023-44487 on web-eu-0012), one a device already fixed (CVE-2024-6387 on
 * db-us-0020), and EternalBlue on SRV-SQL-0003, which only the SMBv1 worklet mitigates.
 */

export type FleetDevice = {
  hostname: string;
  fqdn: string;
  ip: string;
  os_family: OsFamily;
  os_name: string;
  os_version: string;
  patches: Pick<InventoryPatch, 'name' | 'version' | 'severity' | 'cves' | 'kb' | 'source'>[];
};

export const KB_SERVER =
  '2024-11 Cumulative Update for Microsoft server operating system version 21H2 for x64-based Systems (KB5046616)';
export const KB_WIN11 = '2024-11 Cumulative Update for Windows 11 Version 23H2 for x64-based Systems (KB5046633)';
export const SAFARI = 'Safari18.1.1SequoiaAuto-18.1.1';

const windowsPatch = (name: string, kb: string) => ({
  name,
  version: kb,
  severity: 'critical' as const,
  cves: ['CVE-2024-43451', 'CVE-2024-49039', 'CVE-2024-43639'],
  kb,
  source: 'wua',
});

export const FLEET: FleetDevice[] = [
  {
    hostname: 'SRV-SQL-0003',
    fqdn: 'srv-sql-0003.corp.example.com',
    ip: '10.20.1.13',
    os_family: 'windows',
    os_name: 'Windows Server 2022 Datacenter',
    os_version: '10.0.20348',
    patches: [windowsPatch(KB_SERVER, 'KB5046616')],
  },
  {
    hostname: 'WS-3F0007',
    fqdn: 'ws-3f0007.corp.example.com',
    ip: '10.20.2.7',
    os_family: 'windows',
    os_name: 'Windows 11 Enterprise',
    os_version: '10.0.22631',
    patches: [windowsPatch(KB_WIN11, 'KB5046633')],
  },
  {
    hostname: 'web-eu-0012',
    fqdn: 'web-eu-0012.example.com',
    ip: '10.30.0.12',
    os_family: 'linux',
    os_name: 'Debian GNU/Linux 12 (bookworm)',
    os_version: '12',
    patches: [
      { name: 'openssl', version: '3.0.15-1~deb12u1', severity: 'high', cves: ['CVE-2024-5535'], source: 'apt' },
      { name: 'curl', version: '7.88.1-10+deb12u7', severity: 'medium', cves: ['CVE-2024-7264'], source: 'apt' },
      { name: 'libcurl4', version: '7.88.1-10+deb12u7', severity: 'medium', cves: ['CVE-2024-7264'], source: 'apt' },
      {
        name: 'openssh-server',
        version: '1:9.2p1-2+deb12u3',
        severity: 'high',
        cves: ['CVE-2024-6387'],
        source: 'apt',
      },
      { name: 'tzdata', version: '2024b-0+deb12u1', severity: 'none', cves: [], source: 'apt' },
    ],
  },
  {
    hostname: 'db-us-0020',
    fqdn: 'db-us-0020.example.com',
    ip: '10.30.0.20',
    os_family: 'linux',
    os_name: 'Ubuntu 22.04.5 LTS',
    os_version: '22.04',
    patches: [
      { name: 'openssl', version: '3.0.2-0ubuntu1.18', severity: 'high', cves: ['CVE-2024-5535'], source: 'apt' },
    ],
  },
  {
    hostname: 'ana-mbp-0005',
    fqdn: 'ana-mbp-0005.example.com',
    ip: '10.20.3.5',
    os_family: 'mac',
    os_name: 'macOS Sequoia 15.1',
    os_version: '15.1',
    patches: [
      {
        name: SAFARI,
        version: '18.1.1',
        severity: 'high',
        cves: ['CVE-2024-44308', 'CVE-2024-44309'],
        source: 'softwareupdate',
      },
    ],
  },
];

/** Enrols `devices` in the zone of `accessKey`, each with its inventory and private address; ids by host name. */
export async function enrollFleet(
  t: TestApp,
  accessKey: string,
  devices: FleetDevice[] = FLEET,
): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const d of devices) {
    const device = await enrollDevice(t, accessKey, {
      hostname: d.hostname,
      os_family: d.os_family,
      os_name: d.os_name,
      os_version: d.os_version,
    });
    const inventory = inventoryBody({ hostname: d.hostname });
    inventory.system = {
      ...inventory.system,
      fqdn: d.fqdn,
      os_family: d.os_family,
      os_name: d.os_name,
      os_version: d.os_version,
      nics: [{ name: 'eth0', mac: '00:11:22:33:44:55', ips: [d.ip] }],
    };
    inventory.software = [];
    inventory.patches = d.patches.map((p) => ({ current_version: null, reboot_required: false, ...p }));
    const sent = await agentCall(t, device.token, 'PUT', '/inventory', inventory);
    if (sent.status >= 300) throw new Error(`inventory: ${sent.status} ${sent.text}`);
    const checkin = await checkinAs(t, device.token, { status: { ip_addrs_private: [d.ip] } });
    if (checkin.status !== 200) throw new Error(`checkin: ${checkin.status} ${checkin.text}`);
    ids[d.hostname] = device.id;
  }
  await flushLastSeen(t);
  return ids;
}

export const SAMPLES_DIR = new URL('./samples/', import.meta.url);

/** A sample scanner export shipped with the product. */
export const sampleFile = (source: ScannerSource): Buffer => readFileSync(new URL(`${source}.csv`, SAMPLES_DIR));

export type Uploaded = { status: number; body: JsonBody; text: string };

/** A real multipart upload, as the console's dialog sends it. */
export async function uploadCsv(
  t: TestApp,
  caller: Caller,
  zoneId: number,
  source: ScannerSource | string,
  content: string | Buffer | Uint8Array,
  options: { filename?: string; type?: string; query?: string } = {},
): Promise<Uploaded> {
  const form = new FormData();
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
  form.append('file', new Blob([bytes], { type: options.type ?? 'text/csv' }), options.filename ?? `${source}.csv`);
  const res = await t.request(
    `/api/orgs/${zoneId}/tasks/patch/batches/upload?o=${zoneId}&source=${source}${options.query ?? ''}`,
    { method: 'POST', headers: caller.cookie ? { cookie: caller.cookie } : {}, body: form },
  );
  const text = await res.text();
  let body: JsonBody;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}
