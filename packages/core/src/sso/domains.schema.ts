import { z } from 'zod';
import { TEXTS } from '../texts';

/**
 * An account's e-mail domains (issue 13, spec A sections 3 and 4): added pending with a
 * random token, verified when DNS answers the TXT record `patchwell-verification=<token>`.
 * A SAML connection sends only the users of its domains to its identity provider.
 */

export const DOMAIN_STATUSES = ['pending', 'verified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** The TXT record's value is this prefix followed by the domain's token. */
export const DOMAIN_TXT_PREFIX = 'patchwell-verification=';

/** Domains one account may hold (verified or pending). */
export const DOMAINS_PER_ACCOUNT_MAX = 100;

export const DOMAIN_TEXTS = {
  inUseForAccount: 'This domain is already in use for your account.',
  inUseByOtherAccount: 'This domain is already in use by another account.',
  tooMany: `An account can have at most ${DOMAINS_PER_ACCOUNT_MAX} domains.`,
  usedByConnection: (connection: string) =>
    `This domain is used by the connection ${connection}. Remove it from that connection first.`,
  verified: 'Success: The domain has been verified.',
  notFoundYet: (record: string) =>
    `The TXT record ${record} was not found. DNS changes can take up to 24 hours to appear; try Verify again later.`,
  dnsFailed: (reason: string) => `DNS did not answer the check (${reason}). Try Verify again later.`,
  created: 'Success: The domain has been added.',
  deleted: 'Success: The domain has been deleted.',
  pendingHelp: 'Create this TXT record at your DNS provider, then choose Verify. DNS changes can take up to 24 hours.',
} as const;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Whether `name` (lower case, no trailing dot) is a domain people have addresses at: two
 * labels or more of letters, digits and inner hyphens, 253 characters at most, and an
 * alphabetic (or punycode) top-level label, so an IP address is not a domain.
 */
export function isValidDomain(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false;
  const labels = name.split('.');
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && TLD.test(labels[labels.length - 1]!);
}

/** A domain as typed: trimmed, lower-cased, one trailing dot dropped, then checked ('Must be a valid domain.'). */
export const ZDomainName = z
  .string()
  .max(300, TEXTS.validation.domain)
  .meta({ format: 'hostname' })
  .transform((s) => s.trim().toLowerCase().replace(/\.$/, ''))
  .refine(isValidDomain, TEXTS.validation.domain);

/** `POST /api/accounts/{accountId}/domains`. */
export const ZAddDomainBody = z.object({
  /** The domain, e.g. `example.com`: lower-cased, without a trailing dot. */
  name: ZDomainName,
});
export type AddDomainBody = z.infer<typeof ZAddDomainBody>;

export const ZAccountDomain = z.object({
  /** The domain's public id (a UUID). */
  id: z.string(),
  name: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  /** The DNS record to create to prove the domain: TXT on the domain itself. */
  verification_record: z.object({ type: z.literal('TXT'), host: z.string(), value: z.string() }),
  /** The connection whose sign-in the domain's users go through, if any. */
  connection: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  /** The last Verify, whatever its outcome. */
  last_checked_at: z.string().nullable(),
  verified_at: z.string().nullable(),
});
export type AccountDomain = z.infer<typeof ZAccountDomain>;

export const ZAccountDomainList = z.object({ data: z.array(ZAccountDomain), size: z.number().int() });
export type AccountDomainList = z.infer<typeof ZAccountDomainList>;

/** `POST …/domains/{domainId}/verify`: the domain after the check, and what DNS said. */
export const ZDomainVerifyResult = z.object({
  domain: ZAccountDomain,
  /** True when the TXT record was found (or the domain was verified already). */
  verified: z.boolean(),
  /** What the check found, to show as is. */
  message: z.string(),
});
export type DomainVerifyResult = z.infer<typeof ZDomainVerifyResult>;
