import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, organizations, users } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Single sign-on: an account's e-mail domains (proved through a DNS TXT record), its SAML
 * connections, and what the sign-in flow must remember (requests issued, assertions
 * consumed). modules/domains writes `account_domains`; modules/saml writes the rest.
 */

export const domainStatusEnum = pgEnum('domain_status', ['pending', 'verified']);
export const samlProvisionTypeEnum = pgEnum('saml_provision_type', ['invite', 'zone_rbac']);

/**
 * A SAML 2.0 identity provider an account signs its users in through. The IdP is
 * described by its metadata XML or by its certificate, sign-in URL and entity ID; either
 * way the parsed values are stored here, so sign-in never re-parses the metadata.
 */
export const samlConnections = pgTable(
  'saml_connections',
  {
    id: serial('id').primaryKey(),
    /** Public id: in the console's route, the SP entity ID, the ACS URL and the metadata URL. */
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    provisionType: samlProvisionTypeEnum('provision_type').notNull(),
    /** The IdP's metadata as uploaded, kept to show it again; null when entered by fields. */
    idpMetadataXml: text('idp_metadata_xml'),
    idpEntityId: text('idp_entity_id').notNull(),
    /** The IdP's SingleSignOnService (HTTP-Redirect binding). */
    idpSsoUrl: text('idp_sso_url').notNull(),
    /** PEM certificates the IdP may sign with (metadata can list several during a rollover). */
    idpCertificates: jsonb('idp_certificates').$type<string[]>().notNull(),
    /** `zone_rbac`: the account role new users get when no zone pair applies (role ids of core/zones/roles.ts). */
    defaultRoleId: integer('default_role_id'),
    createdAt: tstz('created_at').notNull(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [index('saml_connections_account_idx').on(t.accountId)],
);

/** `zone_rbac` connections: the role a user signing in through the connection gets in a zone. */
export const samlConnectionZoneRoles = pgTable(
  'saml_connection_zone_roles',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => samlConnections.id, { onDelete: 'cascade' }),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.organizationId] })],
);

/**
 * An account's e-mail domain. It is added pending with a random token, and verified when
 * DNS answers the TXT record `patchwell-verification=<token>` for it. Only a verified
 * domain sends its users to a connection's IdP, and a domain is verified by one account
 * at most (the partial unique index), so nobody can claim another company's users.
 */
export const accountDomains = pgTable(
  'account_domains',
  {
    id: serial('id').primaryKey(),
    uuid: uuid('uuid').notNull().defaultRandom().unique(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Lower-case, without a trailing dot. */
    name: text('name').notNull(),
    status: domainStatusEnum('status').notNull().default('pending'),
    verificationToken: text('verification_token').notNull(),
    /** The connection the domain's users sign in through, if any (one at most). */
    connectionId: integer('connection_id').references(() => samlConnections.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
    lastCheckedAt: tstz('last_checked_at'),
    verifiedAt: tstz('verified_at'),
  },
  (t) => [
    uniqueIndex('account_domains_account_name_unique').on(t.accountId, t.name),
    uniqueIndex('account_domains_verified_name_unique')
      .on(t.name)
      .where(sql`${t.status} = 'verified'`),
    index('account_domains_connection_idx').on(t.connectionId),
  ],
);

/**
 * AuthnRequests Patchwell issued: a response must answer one of them (InResponseTo), once,
 * before it expires. Unsolicited (IdP-initiated) responses are refused.
 */
export const samlRequests = pgTable(
  'saml_requests',
  {
    /** The request's ID attribute (an NCName: `_` followed by random hex). */
    id: text('id').primaryKey(),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => samlConnections.id, { onDelete: 'cascade' }),
    /** Where the console goes after sign-in (a checked relative path) and the zone asked for. */
    redirectPath: text('redirect_path'),
    organizationId: integer('organization_id'),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
  },
  (t) => [index('saml_requests_expires_idx').on(t.expiresAt)],
);

/** Assertion IDs already accepted, kept until the assertion expires, so a replay is refused. */
export const samlAssertionIds = pgTable(
  'saml_assertion_ids',
  {
    connectionId: integer('connection_id')
      .notNull()
      .references(() => samlConnections.id, { onDelete: 'cascade' }),
    assertionId: text('assertion_id').notNull(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.assertionId] }),
    index('saml_assertion_ids_expires_idx').on(t.expiresAt),
  ],
);

/** Which connection a user signed in through last (the profile's saml_enabled and zone re-authentication read it). */
export const samlUserLinks = pgTable(
  'saml_user_links',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => samlConnections.id, { onDelete: 'cascade' }),
    /** The NameID the IdP sent (an e-mail address for the formats we accept). */
    nameId: text('name_id').notNull(),
    lastSigninAt: tstz('last_signin_at').notNull(),
    /** Whether the link was made by provisioning (`zone_rbac`) rather than for an invited user. */
    provisioned: boolean('provisioned').notNull().default(false),
  },
  (t) => [index('saml_user_links_connection_idx').on(t.connectionId)],
);
