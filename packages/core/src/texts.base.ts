/**
 * The product's exact texts that a page may show before anyone signs in: generic errors,
 * form validation, the login page's messages and the 404 page. Apart from `texts.ts` (which
 * spreads them in) so that the console's first download carries these and not the whole
 * catalogue; modules on that path import `BASE_TEXTS`, every other module `TEXTS`.
 */
export const BASE_TEXTS = {
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
  notFound: {
    title: '404 - Page Not Found',
    body: 'The page you were looking for could not be found.',
  },
} as const;
