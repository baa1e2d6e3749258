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
  // Remediation: batches (scanner CSV imports). Upload refusals name the line and column in
  // their message; the texts here are what each refusal means.
  'batches.bad_file_name': { status: 400, message: TEXTS.uploads.fileNameRule },
  'batches.not_csv': { status: 400, message: 'The file must be a CSV file (.csv).' },
  'batches.not_utf8': {
    status: 400,
    message: 'The file is not UTF-8 text. Export it as CSV (UTF-8) and upload it again.',
  },
  'batches.bad_csv': { status: 400, message: 'The file is not valid CSV.' },
  'batches.missing_columns': { status: 400, message: 'The file lacks a column its scanner’s format requires.' },
  'batches.bad_cells': { status: 400, message: 'Some cells of the file cannot be read.' },
  'batches.too_many_rows': { status: 400, message: 'The file has more than 20,000 rows. Split it into smaller files.' },
  'batches.too_many_findings': {
    status: 400,
    message: 'The file names too many host and CVE pairs. Split it into smaller files.',
  },
  'batches.no_findings': { status: 400, message: 'No row of the file names a host with a CVE.' },
  'batches.too_large': { status: 413, message: 'The file is larger than 32 MiB. Split it into smaller files.' },
  'batches.building': {
    status: 409,
    message: 'This batch is still being matched to devices; try again once it is ready.',
  },
  'batches.not_ready': { status: 409, message: 'Only a batch awaiting approval can be accepted.' },
  'batches.decided': {
    status: 409,
    message: 'This batch was already accepted or rejected; upload the file again to review it anew.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
