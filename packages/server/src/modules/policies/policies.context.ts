import type { AgentRuntime } from '../../agent-api/agent-runtime';
import type { AppContext } from '../../context';
import type { PolicyEngine } from '../../engine/scheduler';

/** What the policies module's services receive: the app's context, the agents to wake, the engine. */
export type PoliciesCtx = AppContext & { agents: AgentRuntime; engine: PolicyEngine };
