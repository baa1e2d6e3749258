/** Facts every adapter reads the same way through Node's `os` module. */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type { Nic } from '../protocol.js';

export function nics(): Nic[] {
  const out: Nic[] = [];
  for (const [name, addrs] of Object.entries(os.networkInterfaces())) {
    const list = (addrs ?? []).filter((a) => !a.internal);
    if (list.length === 0) continue;
    out.push({ name, mac: list[0]!.mac, ips: list.map((a) => a.address) });
  }
  return out;
}

const PRIVATE = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^f[cd]/i, /^fe80:/i];

export function isPrivateIp(ip: string): boolean {
  return PRIVATE.some((re) => re.test(ip));
}

/** Splits the machine's addresses into public and private ones. */
export function ipAddrs(list: Nic[] = nics()): { ip_addrs: string[]; ip_addrs_private: string[] } {
  const all = list.flatMap((n) => n.ips);
  return { ip_addrs: all.filter((ip) => !isPrivateIp(ip)), ip_addrs_private: all.filter(isPrivateIp) };
}

/** A last-resort identity: the hostname and the MAC addresses. */
export function fallbackMachineId(): string {
  const macs = nics()
    .map((n) => n.mac)
    .sort()
    .join(',');
  return createHash('sha256').update(`${os.hostname()}|${macs}`).digest('hex').slice(0, 32);
}

export function timezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}
