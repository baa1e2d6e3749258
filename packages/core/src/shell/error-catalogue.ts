import { AUTH_ERRORS } from '../auth/auth-errors';
import { TEXTS } from '../texts';

/**
 * Every shared error code the API answers with: its HTTP status and its text. Servers build
 * errors from here (`appError('not_found')`), the console matches on the codes and shows the
 * texts. Codes used by one service only (`groups.name_taken`) may still carry their text
 * where they are raised; a code raised in more than one place belongs here.
 */
export const ERROR_CATALOGUE = {
  // The request itself.
  bad_request: { status: 400, message: 'The request could not be processed.' },
  validation: { status: 400, message: TEXTS.validation.summary },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  internal: { status: 500, message: TEXTS.generic.unexpected },
  // Who may do what.
  not_found: { status: 404, message: 'Not found.' },
  'authz.forbidden': { status: 403, message: TEXTS.generic.noPermission },
  'authz.missing': { status: 500, message: TEXTS.generic.unexpected },
  csrf: { status: 403, message: AUTH_ERRORS.crossSite.message },
  // Sign-in, sessions, keys.
  'auth.unauthenticated': { status: 401, message: AUTH_ERRORS.unauthenticated.message },
  'auth.session_expired': { status: 401, message: AUTH_ERRORS.sessionExpired.message },
  'auth.invalid_credentials': { status: 401, message: AUTH_ERRORS.invalidCredentials.message },
  // Signin words it with the minutes left; this is the text without them.
  'auth.locked': { status: 403, message: 'This account is locked after too many failed sign-ins.' },
  'auth.rate_limited': { status: 429, message: 'Too many requests. Try again later.' },
  'auth.email_taken': { status: 409, message: AUTH_ERRORS.emailTaken.message },
  'auth.invalid_api_key': { status: 401, message: 'The API key is invalid, expired or revoked.' },
  // Users and zones.
  'users.email_in_use': { status: 409, message: TEXTS.users.emailInUse },
  'users.already_in_zone': { status: 409, message: TEXTS.users.alreadyInZone },
  'users.global_admin': {
    status: 403,
    message: "A global administrator's role and status can only be changed in global user management.",
  },
  'zones.name_taken': { status: 409, message: TEXTS.zones.nameTaken },
  'zones.tier_required': {
    status: 403,
    message:
      'Creating a zone needs the Complete plan (or an active trial) on the parent organisation. ' +
      'Upgrade to Complete to add zones.',
  },
  // The agents' API.
  'agent.invalid_access_key': { status: 401, message: 'The access key is not valid.' },
  'agent.invalid_token': { status: 401, message: 'The device token is not valid.' },
  'agent.removed': { status: 410, message: 'This device was removed; stop the agent.' },
  'agent.rate_limited': { status: 429, message: 'Too many requests from this device.' },
  // Remediation: tasks
  'tasks.execute_forbidden': { status: 403, message: TEXTS.remediationTasks.executeForbidden },
  'tasks.not_pending': {
    status: 409,
    message: 'Only a pending task can be executed: this one was already executed or canceled.',
  },
  'tasks.not_cancelable': {
    status: 409,
    message: 'Only a pending or in-progress task can be canceled: this one is already finished or canceled.',
  },
  'tasks.worklet_invalid': { status: 422, message: TEXTS.remediationTasks.workletInvalidMessage },
  'tasks.patch_missing': { status: 422, message: 'This task names no patch to install; it cannot be executed.' },
  // Remediation: CVE view
  'cve_exception.exists': {
    status: 409,
    message: 'An exception for this CVE is already in force for the same device or zone. Revoke it first.',
  },
  'cve_exception.ended': { status: 409, message: 'This exception is no longer in force: it was revoked or expired.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
