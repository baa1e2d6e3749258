/**
 * Console-only texts: labels and messages the specification leaves to us. The spec's own
 * wording lives in `@patchwell/core/texts` (TEXTS); use that catalogue first.
 */
export const CONSOLE_TEXTS = {
  product: 'Patchwell',
  footer: '© 2026 Patchwell contributors',
  skipToContent: 'Skip to main content',
  homeLink: 'Patchwell home',
  loading: 'Loading',
  nav: {
    label: 'Main',
    devices: 'Devices',
    software: 'Software',
    manage: 'Manage',
    policies: 'Policies',
    groups: 'Groups',
    tasks: 'Tasks',
    remediations: 'Remediations',
    workletCatalog: 'Worklet Catalog',
    reports: 'Reports',
    openMenu: 'Open navigation',
    closeMenu: 'Close navigation',
    mobileTitle: 'Navigation',
  },
  trial: {
    daysLeft: (n: number) => `${n} ${n === 1 ? 'day' : 'days'} left in trial`,
  },
  zones: {
    search: 'Search zones',
    menuLabel: (name: string) => `Zone: ${name}`,
    globalView: 'Global view',
    selectZone: 'Select a zone',
    noZone: 'No zone selected',
    createNewTitle: 'Create New Zone',
    createNewPending:
      'Creating zones from the console arrives with zone management. Until then, an account administrator can create zones.',
    close: 'Close',
    loginRequiredTitle: 'Login Required',
    loginRequiredBody: 'This zone uses single sign-on. Log in again to continue in it.',
    continueToLogin: 'Continue To Login',
    cancel: 'Cancel',
    noZones: 'You are not a member of any zone yet.',
    noZonesDescription: 'Ask an administrator of your account to add you to a zone.',
  },
  help: {
    label: 'Help',
    newTab: '(opens in a new tab)',
  },
  account: {
    label: 'Account menu',
    billing: 'Billing',
    users: 'Users',
    keys: 'Keys',
    security: 'Security',
    apns: 'APNS Settings',
    logout: 'Logout',
  },
  banners: {
    unsupportedBrowser:
      'Your browser is not supported. Some parts of Patchwell may not work. Please use a current version of Chrome, Edge, Firefox or Safari.',
    dismiss: 'Dismiss',
    showMore: 'Show more',
    showLess: 'Show less',
    region: 'Announcements',
  },
  chunk: {
    title: 'Reload Required',
    body: 'Part of the console could not be loaded, usually because a new version was deployed. Reload the app to continue.',
  },
  unsaved: {
    title: 'Unsaved changes',
    leave: 'Leave',
    stay: 'Stay',
  },
  login: {
    title: 'Log in to Patchwell',
    email: 'Email',
    password: 'Password',
    submit: 'Log In',
    noAccount: "Don't have an account?",
    signUp: 'Sign up',
    forgotPassword: 'Forgot password?',
  },
  signup: {
    title: 'Create your Patchwell account',
    firstname: 'First name',
    lastname: 'Last name',
    company: 'Company name',
    email: 'Email',
    password: 'Password',
    passwordConfirmation: 'Confirm password',
    endpoints: 'Number of endpoints',
    submit: 'Create Account',
    haveAccount: 'Already have an account?',
    logIn: 'Log in',
    disabled: 'Sign-up is not available on this server. Ask your administrator for an invitation.',
  },
  accountCreated: {
    title: 'Your account is ready',
    body: (name: string) => `The account ${name} has been created.`,
    bodyNoName: 'Your account has been created.',
    signedInAs: (email: string) => `You are signed in as ${email}.`,
    enter: 'Go to the console',
  },
  acceptInvite: {
    title: 'Accept Invitation',
    description:
      'Invitation acceptance arrives with user management. Until then, ask the administrator who invited you to create your account.',
    toLogin: 'Go to login',
  },
  passwordPages: {
    forgotTitle: 'Forgot Password',
    resetTitle: 'Reset Password',
    description: 'Password reset arrives with the authentication milestone.',
  },
  notFound: {
    pageTitle: '404',
    backToConsole: 'Return to the console',
    contactSupport: 'Contact support',
    documentation: 'Documentation',
    knowledgeBase: 'Knowledge base',
  },
  settings: {
    tabsLabel: 'Settings sections',
  },
  reports: {
    tabsLabel: 'Reports',
  },
  global: {
    tabsLabel: 'Global setup sections',
  },
  open: 'Open',
} as const;
