/**
 * The product's exact texts, quoted from the console specification. Screens, server
 * messages and tests import them from here so a wording change happens in one place.
 */
export const TEXTS = {
  generic: {
    unexpected: 'An unexpected error occurred. Please try again. If the issue persists, contact support.',
    pageLoadFailed: 'Error: Some of the data for this page failed to load. Please reload the page to try again.',
    navigationFailed: 'Something Went Wrong - Please Reload',
    reloadNow: 'Reload Now',
    configLoadFailed: 'An error occurred while attempting to load the config.',
    noPermission: "You don't have permission",
    unsavedChanges: 'You are about to leave with unsaved changes. Are you sure?',
    timedOut: (ms: number) => `The request timed out at: ${ms}`,
    unableToLoad: 'Unable to load data.',
    featureUnavailable: 'Feature Unavailable',
  },
  validation: {
    required: 'This field is required.',
    email: 'Must be a valid email.',
    domain: 'Must be a valid domain.',
    numberBetween: (min: number, max: number) => `Value must be a number between ${min} and ${max}.`,
    minLength: (minLength: number) => `Value must be at least ${minLength} characters.`,
    namedRequired: (name: string) => `${name} is required`,
    atLeastOne: 'At least one item is required',
    summary: 'One or more fields have an error. Please check and try again.',
  },
  login: {
    failed: 'An error was encountered during login. Please contact support if this issue persists.',
    verificationEmailSent:
      'Your user account requires email verification. Please check your email to verify your account.',
    sessionExpired: 'Your session has expired. When you login again, unsaved changes will no longer be available.',
  },
  /** Success messages of spec A section 8 ('session expiration timeouts updated', 'password reset email sent'). */
  success: {
    sessionTimeoutsUpdated: 'Success: Session expiration timeouts updated.',
    passwordResetEmailSent: 'Success: Password reset email sent.',
    mfaReset: 'Success: MFA reset.',
  },
  notFound: {
    title: '404 - Page Not Found',
    body: 'The page you were looking for could not be found.',
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
