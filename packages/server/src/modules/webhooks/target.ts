import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_TEXTS, webhookUrlProblem } from '@patchwell/core/webhooks/webhooks.schema';

/**
 * Where a webhook may send (SSRF): never to private, loopback, link-local, shared, multicast
 * or reserved addresses, checked on the resolved address at creation and again before every
 * attempt (a name may point elsewhere later); the attempt then connects to the very address
 * that was checked, so a second resolution cannot swap it (DNS rebinding).
 * `WEBHOOKS_ALLOW_LOOPBACK=1` (tests, local development) admits http and https to
 * 127.0.0.1, ::1 and localhost, and loopback addresses only.
 */

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged as its IPv4 address. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopbackAddress(address: string): boolean {
  const a = normalise(address);
  return loopback.check(a.address, a.family);
}

/** Whether a webhook may connect to `address`. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const a = normalise(address);
  if (allowLoopback) return loopback.check(a.address, a.family);
  return !blocked.check(a.address, a.family);
}

export type Target = { url: URL; address: string; family: 4 | 6 };
export type TargetResult = { target: Target } | { problem: string };

/** Resolves the URL's host and checks its shape and every address it resolves to. */
export async function resolveTarget(url: string, allowLoopback: boolean): Promise<TargetResult> {
  const problem = webhookUrlProblem(url, { allowLoopbackHttp: allowLoopback });
  if (problem) return { problem };
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { problem: WEBHOOK_TEXTS.unresolvable };
  }
  if (!addresses.length) return { problem: WEBHOOK_TEXTS.unresolvable };
  // Every address must pass: a name with one public and one private address is refused.
  if (addresses.some((a) => !isAllowedAddress(a.address, allowLoopback)))
    return { problem: WEBHOOK_TEXTS.privateTarget };
  const first = addresses[0]!;
  return { target: { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 } };
}
