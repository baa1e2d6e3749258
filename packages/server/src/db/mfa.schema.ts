import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgEnum, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { MFA_FACTOR_TYPES } from '@patchwell/core/auth/mfa.schema';
import { users } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Multi-factor authentication (modules/mfa writes these tables, and `users.tfa_enabled`,
 * `organizations.require_mfa`, `accounts.require_mfa`). Codes and recovery codes are stored
 * as keyed hashes (HMAC under the server's secret key): a 6-digit code's plain sha256 could
 * be reversed by trying a million values.
 */

export const mfaFactorTypeEnum = pgEnum('mfa_factor_type', MFA_FACTOR_TYPES);
export const mfaChallengePurposeEnum = pgEnum('mfa_challenge_purpose', ['verify', 'enrol']);

/**
 * A user's second factor: enrolled once `confirmed_at` is set (a first right code), pending
 * before. One per user; a new setup replaces a pending one.
 */
export const mfaFactors = pgTable('mfa_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  type: mfaFactorTypeEnum('type').notNull(),
  /** `google`: the TOTP secret, AES-256-GCM under the server's secret key (as the zones' access keys). */
  secretEncrypted: text('secret_encrypted'),
  createdAt: tstz('created_at').notNull(),
  confirmedAt: tstz('confirmed_at'),
  /** The last TOTP time step accepted: a code of that step or an earlier one is a replay. */
  lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
  /** Wrong sign-in codes in a row; reaching the limit locks the user (signin.service.ts's lock). */
  failedCodes: integer('failed_codes').notNull().default(0),
});

/** Recovery codes: each signs in once instead of a code. Regenerating replaces them all. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: tstz('created_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId)],
);

/** E-mailed codes: single use, 10 minutes; a newer code supersedes the earlier ones (marked used). */
export const mfaEmailCodes = pgTable(
  'mfa_email_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [
    index('mfa_email_codes_user_idx')
      .on(t.userId)
      .where(sql`${t.usedAt} is null`),
  ],
);

/**
 * A sign-in between the right password and the second factor (or the enrolment a
 * requirement asks for). The browser holds the token in an HTTP-only cookie; only its sha256
 * is stored. It lasts 5 minutes and ends with the sign-in.
 */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: mfaChallengePurposeEnum('purpose').notNull(),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
  },
  (t) => [index('mfa_challenges_user_idx').on(t.userId), index('mfa_challenges_expires_idx').on(t.expiresAt)],
);
