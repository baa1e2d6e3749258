import { DATA_EXTRACT_ERRORS } from '../reports/extracts.schema';
import { REPORT_SCHEDULE_TEXTS } from '../reports/schedules.schema';
import { WEBHOOK_TEXTS } from '../webhooks/webhooks.schema';
import { MAINTENANCE_WINDOW_TEXTS } from '../maintenance/maintenance-windows.schema';
import { DOMAIN_TEXTS } from '../sso/domains.schema';
import { AUTH_ERRORS } from '../auth/auth-errors';
import { HOST_IMPORT_MAX_BYTES, HOST_IMPORT_MAX_ROWS } from '../devices/host-imports.schema';
import { PASSWORD_RESET_TEXTS } from '../auth/password-reset.schema';
import { MFA_TEXTS } from '../auth/mfa.schema';
import { TEXTS } from '../texts';
import { REMOTE_TEXTS } from '../remote/remote-sessions.schema';
import { ENTITLEMENT_TEXTS } from '../rules/entitlements';

/**
 * One error of the API: its HTTP status and its text. `message` is a function when the text
 * names something of the moment (minutes left, a run id); `code` is the code the API answers
 * with when it is not the entry's own name: several entries may share one code the console
 * matches on (`authz.forbidden`) while each says what exactly was refused.
 */
export type ErrorEntry = {
  status: number;
  // `never` takes a function of any one argument, so each entry keeps its own wording type.
  message: string | ((wording: never) => string);
  code?: string;
};

/** A text the raising service may replace with a detailed one (line and column of an upload). */
const detailed =
  (text: string) =>
  (wording: { detail?: string } = {}): string =>
    wording.detail ?? text;

const minutes = (n: number) => `${n} ${n === 1 ? 'minute' : 'minutes'}`;

/**
 * Every error the API answers with: the server raises them only from here
 * (`new AppError('groups.name_taken')`, a type error for any other code), the console matches
 * on the codes and shows the texts. Texts quoted by the spec come from {@link TEXTS}.
 */
export const ERROR_CATALOGUE = {
  // The request itself.
  bad_request: { status: 400, message: 'The request could not be processed.' },
  validation: { status: 400, message: TEXTS.validation.summary },
  'request.empty_body': { status: 400, code: 'bad_request', message: 'The request body is empty.' },
  'request.invalid_json': { status: 400, code: 'bad_request', message: 'The request body is not valid JSON.' },
  'request.invalid_content_length': { status: 400, code: 'bad_request', message: 'Content-Length is invalid.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: {
    status: 415,
    message: 'The request body must be JSON (Content-Type: application/json).',
  },
  internal: { status: 500, message: TEXTS.generic.unexpected },
  unavailable: { status: 503, message: 'The service is briefly unavailable. Please try again in a moment.' },
  'idempotency.in_progress': {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress. Try again in a moment.',
  },
  'idempotency.mismatch': { status: 422, message: 'This Idempotency-Key was already used for another request.' },

  // Who may do what.
  not_found: { status: 404, message: 'Not found.' },
  'authz.forbidden': { status: 403, message: TEXTS.generic.noPermission },
  'authz.missing': { status: 500, message: TEXTS.generic.unexpected },
  csrf: { status: 403, message: AUTH_ERRORS.crossSite.message },
  'metrics.forbidden': {
    status: 403,
    message: 'Metrics are served to this machine only, or with the bearer token set in METRICS_TOKEN.',
  },

  // Sign-in, sessions, keys.
  'auth.unauthenticated': { status: 401, message: AUTH_ERRORS.unauthenticated.message },
  'auth.session_expired': { status: 401, message: AUTH_ERRORS.sessionExpired.message },
  'auth.invalid_credentials': { status: 401, message: AUTH_ERRORS.invalidCredentials.message },
  'auth.locked': { status: 403, message: (w: { minutes: number }) => AUTH_ERRORS.locked.message(w.minutes) },
  'auth.unlock_expired': { status: 410, message: AUTH_ERRORS.unlockGone.message },
  'auth.rate_limited': { status: 429, message: 'Too many requests. Try again later.' },
  'auth.sign_in_rate_limited': {
    status: 429,
    code: 'auth.rate_limited',
    message: (w: { minutes: number }) => `Too many sign-in attempts. Try again in ${minutes(w.minutes)}.`,
  },
  'auth.sign_up_rate_limited': {
    status: 429,
    code: 'auth.rate_limited',
    message: (w: { minutes: number }) => `Too many sign-up attempts. Try again in ${minutes(w.minutes)}.`,
  },
  'auth.link_rate_limited': {
    status: 429,
    code: 'auth.rate_limited',
    message: (w: { minutes: number }) => `Too many emails asked for. Try again in ${minutes(w.minutes)}.`,
  },
  'auth.reset_link_expired': { status: 410, message: PASSWORD_RESET_TEXTS.linkGone },
  'auth.verification_link_expired': { status: 410, message: PASSWORD_RESET_TEXTS.verificationGone },
  /** The right password of a sign-up that has not followed its verification link (spec A section 8's text). */
  'auth.email_unverified': { status: 403, message: TEXTS.login.verificationEmailSent },
  'auth.email_taken': { status: 409, message: AUTH_ERRORS.emailTaken.message },
  'auth.invalid_api_key': { status: 401, message: 'The API key is invalid, expired or revoked.' },
  // The second factor (modules/mfa). The two 401s of a right password tell the login page which step follows.
  'auth.mfa_required': { status: 401, message: MFA_TEXTS.needed },
  'auth.mfa_enrolment_required': { status: 401, message: MFA_TEXTS.enrolNeeded },
  'mfa.no_challenge': { status: 401, message: MFA_TEXTS.noChallenge },
  'mfa.invalid_code': { status: 401, message: MFA_TEXTS.invalidCode },
  'mfa.code_required': { status: 403, message: MFA_TEXTS.codeRequired },
  'mfa.already_enabled': { status: 409, message: MFA_TEXTS.alreadyEnabled },
  'mfa.not_enabled': { status: 409, message: MFA_TEXTS.notEnabled },
  'mfa.no_setup': { status: 409, message: MFA_TEXTS.noSetup },
  'mfa.not_email_type': { status: 409, message: MFA_TEXTS.notEmailType },
  'mfa.sso_unavailable': { status: 409, message: MFA_TEXTS.ssoUnavailable },
  // A leaked key must not be able to mint keys that outlive its revocation.
  'api_keys.from_key': {
    status: 403,
    code: 'authz.forbidden',
    message: 'An API key cannot create API keys. Sign in to the console to create one.',
  },
  'api_keys.all_zones': {
    status: 403,
    code: 'authz.forbidden',
    message: 'Only a global administrator can create a key for all zones.',
  },

  // Users, invitations and zones.
  'users.email_in_use': { status: 409, message: TEXTS.users.emailInUse },
  'users.already_in_zone': { status: 409, message: TEXTS.users.alreadyInZone },
  'users.global_admin': {
    status: 403,
    message: "A global administrator's role and status can only be changed in global user management.",
  },
  // An API key cannot take over its owner.
  'users.needs_session': { status: 403, message: 'Sign in to change your email address or password.' },
  'users.email_saml': {
    status: 403,
    message: 'The email address cannot be changed while this zone uses SAML sign-on.',
  },
  'users.self': { status: 403, message: 'You cannot delete your own user.' },
  'invitations.expired': { status: 410, message: 'This invitation has expired or was already used.' },
  'invitations.accepted': { status: 409, message: 'This invitation was already accepted.' },
  // Links are built from PATCHWELL_PUBLIC_URL; a Host header is trusted only on loopback.
  'invitations.public_url_required': {
    status: 409,
    message:
      'Invitation links need the console’s public address: set PATCHWELL_PUBLIC_URL on the server to the address people open the console at.',
  },
  'zones.name_taken': { status: 409, message: TEXTS.zones.nameTaken },

  // Remote control and shell (spec B section 8).
  'remote.unauthorized': { status: 403, code: 'authz.forbidden', message: REMOTE_TEXTS.unauthorized },
  'remote.upgrade': { status: 403, message: REMOTE_TEXTS.upgrade },
  'remote.shell_disabled': { status: 403, message: REMOTE_TEXTS.shellDisabled },
  'remote.offline': { status: 409, message: REMOTE_TEXTS.offline },
  'remote.initializing': { status: 409, message: REMOTE_TEXTS.initializing },
  'remote.busy': { status: 409, message: REMOTE_TEXTS.busy },
  // Node-to-node requests (decision 0016) carry a fresh signature under the servers' shared key.
  'remote.relay_unsigned': { status: 401, message: 'This request between server nodes is not signed, or too old.' },
  'zones.tier_required': {
    status: 403,
    message:
      'Creating a zone needs the Complete plan (or an active trial) on the parent organisation. ' +
      'Upgrade to Complete to add zones.',
  },
  // A feature outside the zone's plan (core/rules/entitlements.ts): spec B section 1's 'Feature Unavailable'.
  'plans.feature_unavailable': {
    status: 403,
    message: (w: { feature: string; plan: string }) => ENTITLEMENT_TEXTS.refused(w.feature, w.plan),
  },
  'zones.disabled': {
    status: 403,
    message:
      'This zone is disabled: its devices and policies can be viewed but not changed. Upgrade to the Complete plan or ask a global administrator to enable it.',
  },
  'zones.access_key_unreadable': {
    status: 409,
    message: 'The access key cannot be read with the server’s current secret key. Rotate it to get a new one.',
  },

  // Devices, groups, host imports.
  'groups.name_taken': { status: 409, message: 'A group with this name already exists in this zone.' },
  'groups.default_undeletable': { status: 409, message: 'The default group cannot be deleted.' },
  'host_imports.not_multipart': {
    status: 415,
    message: 'Upload the CSV file as multipart/form-data (a form with one file field).',
  },
  'host_imports.no_file': { status: 400, message: 'Choose a CSV file to upload.' },
  'host_imports.too_large': {
    status: 413,
    message: `The file is larger than ${HOST_IMPORT_MAX_BYTES / 1024 / 1024} MiB. Split it into smaller files.`,
  },
  'host_imports.not_csv': { status: 415, message: 'The file must be a CSV file (.csv).' },
  'host_imports.workbook': {
    status: 400,
    code: 'host_imports.not_csv',
    message: 'This file is a spreadsheet workbook, not CSV. Save it as “CSV UTF-8” and upload that.',
  },
  'host_imports.not_utf8': {
    status: 400,
    message: 'The file is not UTF-8 text. Save it as “CSV UTF-8” and upload it again.',
  },
  'host_imports.nul_character': {
    status: 400,
    message: (w: { line: number }) =>
      `Line ${w.line} holds a NUL character, so this is not a text file. Save it as “CSV UTF-8” and upload that.`,
  },
  'host_imports.bad_csv': {
    status: 400,
    message: (w: { line?: number; reason: string }) =>
      `The file is not valid CSV${w.line ? ` (line ${w.line})` : ''}: ${w.reason}`,
  },
  'host_imports.empty': {
    status: 400,
    message: 'The file is empty. Its first line must name the columns, e.g. “hostname”.',
  },
  'host_imports.no_rows': {
    status: 400,
    code: 'host_imports.empty',
    message: 'The file has a header but no rows of hosts.',
  },
  'host_imports.too_many_rows': {
    status: 400,
    message: `The file has more than ${HOST_IMPORT_MAX_ROWS.toLocaleString('en-US')} rows. Split it into smaller files.`,
  },
  'host_imports.no_hostname_column': {
    status: 400,
    message:
      'The file has no host name column. Name the first line’s column “hostname” (or host, name, computer name, device name).',
  },
  'host_imports.all_invalid': { status: 400, message: 'No row of the file can be imported.' },
  'host_imports.enrolled': {
    status: 409,
    message: 'This host has already enrolled; manage or remove its device in the device list instead.',
  },

  // Policies and installers.
  'policies.run_open': {
    status: 409,
    message: (w: { runId: number }) =>
      `This policy is already running on these devices (run ${w.runId}). Wait for that run to finish before starting another.`,
  },
  'installers.not_multipart': {
    status: 415,
    message: 'Upload the installer as multipart/form-data (a form with one file field).',
  },
  'installers.no_file': { status: 400, message: 'Choose an installer file to upload.' },
  'installers.too_large': {
    status: 413,
    message: (w: { size: string }) => `The installer is larger than ${w.size}.`,
  },
  'installers.in_use': {
    status: 409,
    message: (w: { policies: string[] }) => {
      const one = w.policies.length === 1;
      const names = w.policies.map((n) => `"${n}"`).join(', ');
      return `This installer is used by ${one ? 'the policy' : 'the policies'} ${names}. Remove it from ${one ? 'that policy' : 'those policies'} first.`;
    },
  },
  'installers.file_missing': { status: 404, message: 'The installer file is missing on the server.' },

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
  // Remediation: batches (scanner CSV imports). A refusal's text names the line and column
  // (`wording.detail`); the texts here are what each refusal means when no detail is given.
  'batches.not_multipart': {
    status: 415,
    message: 'Upload the scanner’s CSV export as multipart/form-data (a form with one file field).',
  },
  'batches.no_file': { status: 400, message: 'Choose a CSV file to upload.' },
  'batches.bad_file_name': { status: 400, message: detailed(TEXTS.uploads.fileNameRule) },
  'batches.not_csv': { status: 400, message: detailed('The file must be a CSV file (.csv).') },
  'batches.not_utf8': {
    status: 400,
    message: detailed('The file is not UTF-8 text. Export it as CSV (UTF-8) and upload it again.'),
  },
  'batches.bad_csv': { status: 400, message: detailed('The file is not valid CSV.') },
  'batches.missing_columns': {
    status: 400,
    message: detailed('The file lacks a column its scanner’s format requires.'),
  },
  'batches.bad_cells': { status: 400, message: detailed('Some cells of the file cannot be read.') },
  'batches.too_many_rows': {
    status: 400,
    message: detailed('The file has more than 20,000 rows. Split it into smaller files.'),
  },
  'batches.too_many_findings': {
    status: 400,
    message: detailed('The file names too many host and CVE pairs. Split it into smaller files.'),
  },
  'batches.no_findings': { status: 400, message: detailed('No row of the file names a host with a CVE.') },
  'batches.too_large': {
    status: 413,
    message: detailed('The file is larger than 32 MiB. Split it into smaller files.'),
  },
  'batches.building': {
    status: 409,
    message: detailed('This batch is still being matched to devices; try again once it is ready.'),
  },
  'batches.not_ready': { status: 409, message: detailed('Only a batch awaiting approval can be accepted.') },
  'batches.decided': {
    status: 409,
    message: detailed('This batch was already accepted or rejected; upload the file again to review it anew.'),
  },
  // Reports: data extracts
  'reports.extracts_busy': { status: 409, message: DATA_EXTRACT_ERRORS.busy },
  'reports.extract_expired': { status: 410, message: DATA_EXTRACT_ERRORS.expired },
  'reports.extract_failed': { status: 409, message: DATA_EXTRACT_ERRORS.failed },
  'reports.extract_not_ready': { status: 409, message: DATA_EXTRACT_ERRORS.notReady },
  'report_schedules.too_many': { status: 409, message: REPORT_SCHEDULE_TEXTS.tooMany },
  'report_schedules.send_in_progress': {
    status: 409,
    message: 'This report is being sent right now. Look at its last sends in a moment.',
  },
  // Outgoing webhooks
  'webhooks.too_many': { status: 409, message: WEBHOOK_TEXTS.tooMany },
  // Maintenance windows
  'maintenance_windows.too_many': { status: 409, message: MAINTENANCE_WINDOW_TEXTS.tooMany },
  // Verified domains and SAML connections
  'domains.in_use_for_account': { status: 409, message: DOMAIN_TEXTS.inUseForAccount },
  'domains.in_use_by_other_account': { status: 409, message: DOMAIN_TEXTS.inUseByOtherAccount },
  'domains.too_many': { status: 409, message: DOMAIN_TEXTS.tooMany },
  'domains.used_by_connection': {
    status: 409,
    message: (w: { connection: string }) => DOMAIN_TEXTS.usedByConnection(w.connection),
  },
  'saml.public_url_required': {
    status: 409,
    message:
      'SAML needs the console’s public address: set PATCHWELL_PUBLIC_URL on the server to the address people open the console at.',
  },
  'agent.bundle_missing': {
    status: 404,
    message: 'The agent is not built on this server: run "npm run build -w @patchwell/agent".',
  },
} as const satisfies Record<string, ErrorEntry>;

type Catalogue = typeof ERROR_CATALOGUE;

/** The name of a catalogue entry: the only thing the server may raise an AppError with. */
export type ErrorCode = keyof Catalogue;

/** Entries whose text needs something of the moment, and what: `{ minutes }` for `auth.locked`. */
export type ErrorWording<C extends ErrorCode> = Catalogue[C]['message'] extends (wording: infer W) => string
  ? W
  : never;

/** Entries with a fixed text. */
export type PlainErrorCode = { [C in ErrorCode]: Catalogue[C]['message'] extends string ? C : never }[ErrorCode];

/** The code the API answers with for an entry (its own name unless it shares another's code). */
export function wireCode(code: ErrorCode): string {
  const entry: ErrorEntry = ERROR_CATALOGUE[code];
  return entry.code ?? code;
}

/** The text of an entry, worded with `wording` when it takes one. */
export function errorText(code: ErrorCode, wording?: unknown): string {
  const { message } = ERROR_CATALOGUE[code] as { message: string | ((w: unknown) => string) };
  return typeof message === 'function' ? message(wording) : message;
}
