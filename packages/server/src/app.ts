import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import qs from 'qs';
import { QUERY_PARSER } from '@patchwell/core/constants';
import { createAgentRuntime, type AgentRuntime } from './agent-api/agent-runtime';
import { agentDownloadRoutes } from './agent-api/agent-download.routes';
import { agentRoutes } from './agent-api/agent.routes';
import { installerDownloadRoutes } from './agent-api/installer-download.routes';
import type { AppContext } from './context';
import { registerAccess } from './http/access';
import { registerAuthzCheck } from './http/authz';
import { bespokeRoutes } from './http/bespoke.routes';
import { registerConsole } from './http/console';
import { clientConfig } from './modules/shell/shell.service';
import { registerDocs } from './http/docs';
import { notFoundBody, registerErrorHandling } from './http/errors';
import { registerMetrics } from './http/metrics';
import { opsRoutes } from './http/ops.routes';
import { registerSecurityHeaders } from './http/security-headers';
import { registerTextGuard } from './http/text-guard';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { logCommandOutcome } from './modules/activity/agent-outcomes.service';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { passwordResetRoutes } from './modules/auth/password-reset.routes';
import { samlSigninRoutes } from './modules/saml-signin/saml-signin.routes';
import { mfaRoutes } from './modules/mfa/mfa.routes';
import { mfaSignInRoutes } from './modules/mfa/mfa-signin.routes';
import { invitationsRoutes } from './modules/invitations/invitations.routes';
import { mailRoutes } from './modules/mail/mail.routes';
import { flagsRoutes } from './modules/flags/flags.routes';
import { domainsRoutes } from './modules/domains/domains.routes';
import { samlConnectionsRoutes } from './modules/saml-connections/connections.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { shellRoutes } from './modules/shell/shell.routes';
import { zonesRoutes } from './modules/zones/zones.routes';
import { usersRoutes } from './modules/users/users.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { globalDevicesRoutes } from './modules/devices/global-devices.routes';
import { groupsRoutes } from './modules/devices/groups.routes';
import { hostImportsRoutes } from './modules/devices/host-imports.routes';
import { softwareRoutes } from './modules/devices/software.routes';
import { policiesModule } from './modules/policies/policies.module';
import { installersRoutes } from './modules/installers/installers.routes';
import { tasksRoutes } from './modules/remediation/tasks/tasks.routes';
import { applyTaskCommandResult } from './modules/remediation/tasks/task-results.service';
import { cvesRoutes } from './modules/remediation/cves/cves.routes';
import { onboardingRoutes } from './modules/onboarding/onboarding.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { extractsRoutes } from './modules/reports/extracts.routes';
import { reportSchedulesRoutes } from './modules/report-schedules/schedules.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { maintenanceWindowsRoutes } from './modules/maintenance-windows/maintenance-windows.routes';
import { apnsRoutes } from './modules/apns/apns.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { remoteSessionsModule } from './modules/remote-sessions/remote-sessions.module';
import { batchesModule } from './modules/remediation/batches/batches.module';
import { closeQuietConnectionsOnClose } from './http/quiet-connections';
import { createCommandEvents, type CommandEvents } from './modules/commands/commands.events';
import { lazyChildLogger, RequestLogController } from './logger';

declare module 'fastify' {
  interface FastifyInstance {
    /** Makes /readyz answer 503 so load balancers drain this node before it closes. */
    markShuttingDown(): void;
    /** This node's agent runtime (tests flush its coalesced check-ins with `flushSeen`). */
    agents: AgentRuntime;
    /** Subscribers to finished device commands (the policy engine; tests add their own). */
    commandEvents: CommandEvents;
  }
}

// A caller's request id is echoed if it looks like one; otherwise we make our own.
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Builds the HTTP app: API, console, docs, probes. Does not listen; `serve.ts` does, tests
 * call `listen({ port: 0 })` or `inject`. Everything it needs comes in `ctx`.
 */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    logController: new RequestLogController(),
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.bodyLimitBytes,
    http: {
      // A connection that trickles its headers gets 408 after HEADERS_TIMEOUT_MS. Node checks on
      // an interval (30 s by default, which made 10 s up to 40 s): check often enough to keep it.
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 4))),
    },
    // A hop count becomes a function: Fastify's types take only booleans, addresses and functions.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: {
      // Nested filters such as `status:equals[]=a` and `filter[a][b]=c`, within the spec's limits.
      querystringParser: (s) => qs.parse(s, { ...QUERY_PARSER }),
    },
  });
  closeQuietConnectionsOnClose(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  let shuttingDown = false;
  app.decorate('markShuttingDown', () => {
    shuttingDown = true;
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply) => {
    // While draining, clients reconnect (to another node) instead of reusing this connection.
    if (shuttingDown) reply.header('connection', 'close');
    // API answers are personal (profiles, sessions): never stored by browsers or proxies.
    if (request.url.startsWith('/api/') && !request.url.startsWith('/api/docs') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });

  await app.register(cookie);
  registerTextGuard(app, config);
  registerSecurityHeaders(app, config);
  const registry = registerMetrics(app);
  registerAccess(app, ctx);
  registerAuthzCheck(app);
  await registerDocs(app, config);

  const consoleFallback = await registerConsole(app, config, clientConfig(ctx));
  app.setNotFoundHandler((request, reply) => {
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isRead && request.url.startsWith('/console/')) return consoleFallback(request, reply);
    return reply.code(404).send(notFoundBody());
  });

  await opsRoutes(app, ctx, { registry, isShuttingDown: () => shuttingDown });
  await authRoutes(app, ctx);
  await passwordResetRoutes(app, ctx);
  await samlSigninRoutes(app, ctx);
  await mfaSignInRoutes(app, ctx);
  await mfaRoutes(app, ctx);
  await accountsRoutes(app, ctx);
  await shellRoutes(app, ctx);
  await zonesRoutes(app, ctx);
  await rolesRoutes(app, ctx);
  await apiKeysRoutes(app, ctx);
  await usersRoutes(app, ctx);
  await invitationsRoutes(app, ctx);
  await mailRoutes(app, ctx);
  await flagsRoutes(app, ctx);
  await domainsRoutes(app, ctx);
  await samlConnectionsRoutes(app, ctx);

  // The agents' in-process state (token cache, coalesced check-ins, long-poll waiters).
  const agents = createAgentRuntime(ctx);
  app.decorate('agents', agents);
  app.addHook('preClose', async () => agents.stopWaiting());
  app.addHook('onClose', async () => agents.close());
  // Device commands announce finished ones here; the policy engine subscribes below.
  const commandEvents = createCommandEvents(ctx.logger);
  app.decorate('commandEvents', commandEvents);
  await agentRoutes(app, { ...ctx, commandEvents }, agents);
  await agentDownloadRoutes(app);
  await installerDownloadRoutes(app, ctx, agents);
  await devicesRoutes(app, ctx, agents);
  await globalDevicesRoutes(app, ctx);
  await hostImportsRoutes(app, ctx);
  await groupsRoutes(app, ctx, agents);
  await softwareRoutes(app, ctx);
  await policiesModule(app, ctx, agents);
  commandEvents.onCommandFinished('the policy engine', (event) => app.policyEngine.commandFinished(event));
  await tasksRoutes(app, { ...ctx, agents, commandEvents });
  commandEvents.onCommandFinished('remediation tasks', (event) => applyTaskCommandResult(ctx, event));
  await installersRoutes(app, ctx);
  await cvesRoutes(app, ctx);
  await reportsRoutes(app, ctx);
  await onboardingRoutes(app, ctx);
  await extractsRoutes(app, ctx);
  await reportSchedulesRoutes(app, ctx);
  await batchesModule(app, ctx);
  await webhooksRoutes(app, ctx);
  await maintenanceWindowsRoutes(app, ctx);
  await apnsRoutes(app, ctx);
  await billingRoutes(app, ctx);
  await remoteSessionsModule(app, ctx, agents);
  // Last: the other subscribers have applied the result the event reports.
  commandEvents.onCommandFinished('the activity log', (event) => logCommandOutcome(ctx, event));
  await activityRoutes(app, ctx);
  await bespokeRoutes(app);

  return app;
}
