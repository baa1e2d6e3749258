import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context';
import { createBatchBuilder, type BatchBuilder } from './batch-builder';
import { batchesRoutes } from './batches.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's batch builds (tests wait for them with `idle()`). */
    batchBuilder: BatchBuilder;
  }
}

/**
 * Scanner batches (issue 11): their routes, and the builder that matches uploaded batches
 * after the answer. Once the app is ready it builds every batch a previous run left
 * `building`; before the app closes it lets the build in progress finish.
 */
export async function batchesModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const batchBuilder = createBatchBuilder(ctx);
  app.decorate('batchBuilder', batchBuilder);
  app.addHook('onReady', async () => batchBuilder.start());
  app.addHook('preClose', async () => batchBuilder.close());
  await batchesRoutes(app, { ...ctx, batchBuilder });
}
