/** The agent's version, reported at enrolment and in every inventory. */
export const AGENT_VERSION = '0.1.0';
