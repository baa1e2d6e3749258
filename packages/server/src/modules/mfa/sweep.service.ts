import type { AppContext } from '../../context';
import { deleteExpired } from './mfa.store';

/** Deletes sign-in challenges and e-mailed codes past their end (the auth sweeper calls it on every node). */
export async function sweepMfa(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<void> {
  await deleteExpired(ctx.db, ctx.clock.now());
}
