import { BASE_TEXTS } from './texts.base';

/**
 * The product's exact texts, quoted from the console specification. Screens, server
 * messages and tests import them from here so a wording change happens in one place.
 * What a page may show before sign-in lives in `texts.base.ts`, spread in here.
 */
export const TEXTS = {
  ...BASE_TEXTS,
  /** Success messages of spec A section 8 ('session expiration timeouts updated', 'password reset email sent'). */
  success: {
    sessionTimeoutsUpdated: 'Success: Session expiration timeouts updated.',
    passwordResetEmailSent: 'Success: Password reset email sent.',
    mfaReset: 'Success: MFA reset.',
  },
  zones: {
    nameRequiredDialog: 'Zone name is required.',
    nameRequiredEditor: 'Zone Name is required',
    nameTaken: 'A zone with this name already exists',
    created: 'Success: Your new zone has been created.',
    settingsSaved: 'Success: Your zone settings have been updated.',
    loadFailed: 'Error: Could not load zone',
    listLoadFailed: 'Error: Could not load zones',
    disabled: 'Zone disabled',
    noResults: 'No results.',
    loading: 'Loading Zones...',
    role: (name: string) => `Role: ${name}`,
    createNew: 'Create New Zone',
    manageLink: 'manage zones and users',
  },
  roles: {
    rolesLoadFailed: 'Information about Roles failed to load. Please try reloading the page.',
    permissionsLoadFailed: 'Information about Permissions failed to load. Please try reloading the page.',
  },
  users: {
    emailInUse: 'This email address is already in use.',
    roleRequired: 'Role is required',
    userRequired: 'A user is required',
    alreadyInZone: 'This user already exists in this Zone',
  },
  trial: {
    expired: 'Trial Expired',
    upgrade: 'Upgrade Now',
  },
  execution: {
    unknownError: 'An unknown error occurred.',
    timedOut: 'The execution timed out.',
    unrecognized: (status: string) => `Execution is in unrecognized state: ${status}`,
    errorCode: (code: string | number) => `Error code: ${code}`,
    pollingFailed: 'There was an issue retrieving the execution status. Try refreshing the page.',
  },
  remediationTasks: {
    executeForbidden: 'You must have admin or patch admin rights to execute this task',
    /** The server's message; the console shows it after 'Error: ' (spec B section 8). */
    workletInvalidMessage: 'Selected worklet does not have a valid ID, please contact support.',
    workletInvalid: 'Error: Selected worklet does not have a valid ID, please contact support.',
  },
  uploads: {
    /** Spec B section 5: the rule an uploaded file's name must follow (scanner batches). */
    fileNameRule: 'File names must not contain spaces and may use only letters, digits and _ - . ~',
  },
  /** The remediations view and its downloads (spec B section 8). */
  remediation: {
    unknownHosts: 'Unknown Hosts',
    csvUnsupported: 'Error: This browser does not support downloading CSV files.',
  },
  /** Remote control's errors and tooltips (spec B section 8). */
  remote: {
    unauthorized: 'Error - Unauthorized to start a Remote Control session.',
    unableToConnect: 'Error - Unable to connect to a Remote Control session, try again later.',
    noConsent: 'There is either no active user or the user did not grant permission for the remote session.',
    setupFailed: 'Error - Remote Control setup failed, try again later.',
    offline: 'Device is offline',
    // The spec's tooltip names Automox: the product is Patchwell.
    initializing: 'Patchwell is currently initializing the device and is unable to start a remote session.',
    windowsOnly: 'This feature is currently only available for Windows devices',
    upgrade: 'Upgrade to our Complete plan to enable this feature',
    noPermission: 'You don’t have the required permission to start a remote control session',
    installing: 'Remote control is being installed on the device. Please wait a few more minutes.',
  },
} as const;
