import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config';

/**
 * Asks DNS for a domain's TXT records through `node:dns`'s Resolver: the servers of
 * `DNS_SERVERS` (tests point it at a loopback server), else the system's.
 */

/** What a check found: the record, no such record (yet), or no usable answer. */
export type TxtCheck = { kind: 'found' } | { kind: 'missing' } | { kind: 'failed'; reason: string };

// NXDOMAIN and "no TXT records" mean the record is not there (yet); every other code
// (ETIMEOUT, ESERVFAIL, ECONNREFUSED, EREFUSED…) means DNS gave no usable answer.
const MISSING = new Set(['ENOTFOUND', 'ENODATA']);

const REASONS: Record<string, string> = {
  ETIMEOUT: 'no answer in time',
  ESERVFAIL: 'the DNS server failed',
  ECONNREFUSED: 'the DNS server refused the connection',
  EREFUSED: 'the DNS server refused the query',
};

/** Whether `name` has a TXT record whose value (its strings joined) is exactly `expected`. */
export async function checkTxtRecord(
  config: Pick<Config, 'dnsServers' | 'dnsTimeoutMs'>,
  name: string,
  expected: string,
): Promise<TxtCheck> {
  const resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 2 });
  if (config.dnsServers) resolver.setServers(config.dnsServers);
  try {
    // A TXT record longer than 255 bytes arrives as several strings: they form one value.
    const records = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    return records.some((r) => r.trim() === expected) ? { kind: 'found' } : { kind: 'missing' };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && MISSING.has(code)) return { kind: 'missing' };
    return { kind: 'failed', reason: (typeof code === 'string' && REASONS[code]) || String(code ?? 'error') };
  } finally {
    resolver.cancel();
  }
}
