import type { FastifyInstance } from 'fastify';
import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import { createPolicyEngine, type PolicyEngine } from '../../engine/scheduler';
import { approvalsRoutes } from './approvals.routes';
import { policiesRoutes } from './policies.routes';
import { runsRoutes } from './runs.routes';
import { workletCatalogRoutes } from '../worklets/worklet-catalog.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's policy scheduler (tests tick it by hand). */
    policyEngine: PolicyEngine;
  }
}

/**
 * Policies, runs, approvals and the worklet catalogue (issue 5), and the scheduler that
 * runs policies: it starts when the app is ready and stops before it closes.
 */
export async function policiesModule(app: FastifyInstance, ctx: AppContext, agents: AgentRuntime): Promise<void> {
  const engine = createPolicyEngine(ctx, agents, ctx.config.policySchedulerIntervalMs);
  app.decorate('policyEngine', engine);
  app.addHook('onReady', async () => engine.start());
  app.addHook('preClose', async () => engine.stop());
  const pctx = { ...ctx, agents, engine };
  await policiesRoutes(app, pctx);
  await runsRoutes(app, pctx);
  await approvalsRoutes(app, pctx);
  await workletCatalogRoutes(app, ctx);
}
