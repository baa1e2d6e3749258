import { COMMON_PASSWORD_MESSAGE } from '@patchwell/core/auth/password';
import type { AppContext } from '../../context';
import { hashPassword, isCommonPassword, verifyPassword } from '../auth/passwords';
import { createAccountWithAdmin } from './accounts.service';
import { countAccounts, findCredentials, lockForBootstrap } from './accounts.store';
import { DEMO_ADMIN_EMAIL, DEMO_PASSWORD, seedDemo } from './demo.seed';

export type BootstrapResult = {
  /** What this start created: the administrator from PATCHWELL_ADMIN_*, the demo, or nothing. */
  created: 'admin' | 'demo' | null;
  /** The demo sign-in when the demo account exists and still takes its published password. */
  demoSignIn: { email: string; password: string } | null;
};

/** Thrown when the configured first administrator cannot be created (a common password, say). */
export class BootstrapError extends Error {}

/**
 * Fills an empty database at start-up: the first administrator from
 * `PATCHWELL_ADMIN_EMAIL`/`PATCHWELL_ADMIN_PASSWORD` if set, else the demo if
 * `PATCHWELL_DEMO` is on. A database with any account is left alone, so this runs safely
 * on every start and on every node (an advisory lock makes nodes take turns).
 */
export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  const { admin, demo } = ctx.config;
  if (admin && isCommonPassword(admin.password)) {
    throw new BootstrapError(`PATCHWELL_ADMIN_PASSWORD: ${COMMON_PASSWORD_MESSAGE}`);
  }
  let created: BootstrapResult['created'] = null;
  if ((admin || demo) && (await countAccounts(ctx.db)) === 0) {
    const now = ctx.clock.now();
    const adminHash = admin ? await hashPassword(admin.password) : null;
    created = await ctx.db.transaction(async (tx) => {
      await lockForBootstrap(tx);
      if ((await countAccounts(tx)) > 0) return null; // another node won the race
      if (admin && adminHash) {
        await createAccountWithAdmin(tx, {
          accountName: admin.email.split('@')[1] ?? 'Patchwell',
          zone: { name: 'Default Zone', plan: 'tier3', trialEndTime: null },
          admin: { email: admin.email, firstname: 'Patchwell', lastname: 'Administrator', passwordHash: adminHash },
          now,
        });
        return 'admin' as const;
      }
      await seedDemo(tx, now);
      return 'demo' as const;
    });
    if (created) ctx.logger.info({ created }, 'empty database initialised');
  }
  return { created, demoSignIn: await demoSignIn(ctx) };
}

async function demoSignIn(ctx: AppContext): Promise<BootstrapResult['demoSignIn']> {
  const found = await findCredentials(ctx.db, DEMO_ADMIN_EMAIL);
  if (!found?.passwordHash || found.status !== 'active' || found.locked) return null;
  return (await verifyPassword(found.passwordHash, DEMO_PASSWORD))
    ? { email: DEMO_ADMIN_EMAIL, password: DEMO_PASSWORD }
    : null;
}
