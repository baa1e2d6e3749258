/**
 * The mutating routes (POST, PUT, PATCH, DELETE under /api) that write no activity event of
 * their own, each with the reason. Every other one writes at least one; the coverage test
 * (activity-coverage.test.ts) walks the OpenAPI document and holds both halves in place.
 */
export const ACTIVITY_EXCLUDED_ROUTES: Record<string, string> = {
  'POST /api/users/self/prefs':
    'the caller’s own display preferences (table columns, dismissed hints): no change to shared data',
  'POST /api/users/self/tfa/setup':
    'starts an enrolment that changes nothing until its first code confirms it (`user.mfa_enable`)',
  'POST /api/user/tfa/setup':
    'starts the enrolment a requirement asks for during sign-in; nothing is on until `POST /api/user/tfa/confirm`',
  'POST /api/users/self/tfa/send-code': 'mails the caller a one-time code; nothing stored changes but the code',
  'POST /api/policies/preview': 'read-only: lists the devices a draft policy would target',
  'POST /api/policies/device-filters-preview': 'read-only: lists the devices a draft device filter matches',
  'POST /api/agent/v1/enroll':
    'agent protocol: the enrolment is logged as the device’s own `agent.enroll` event, not a person’s action',
  'POST /api/agent/v1/checkin': 'agent protocol: a heartbeat every minute per device; presence is shown elsewhere',
  'PUT /api/agent/v1/inventory': 'agent protocol: inventory reports, stored as the device’s inventory',
  'POST /api/agent/v1/commands/{commandId}/result':
    'agent protocol: each finished command is logged as the device’s `agent.<command>` event (commandFinished)',
};
