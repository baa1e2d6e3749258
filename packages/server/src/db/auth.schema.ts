import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** What a mailed link does: set a new password, or prove a new sign-up's e-mail address. */
export const userTokenPurposeEnum = pgEnum('user_token_purpose', ['password_reset', 'email_verification']);

/**
 * Single-use links mailed to a user (modules/auth/user-tokens.store.ts writes it). Only the
 * sha256 of the token is stored: the table alone opens nothing. A new link of a purpose
 * supersedes the user's earlier ones (they are marked used), so at most one is live.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: userTokenPurposeEnum('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** Set when the link is followed, or superseded by a newer one. */
    usedAt: tstz('used_at'),
  },
  (t) => [
    uniqueIndex('user_tokens_hash_unique').on(t.tokenHash),
    index('user_tokens_user_idx')
      .on(t.userId, t.purpose)
      .where(sql`${t.usedAt} is null`),
    index('user_tokens_expires_idx').on(t.expiresAt),
  ],
);
