/**
 * The console texts the first download needs: the entry (plain layout, route error, chunk
 * reload modal, snackbars) and the login page. Kept apart from `texts.ts` so that the signed-out
 * pages do not download the whole catalogue (every feature's texts, 8 KiB gzipped); modules on
 * that path import this file, every other module imports `CONSOLE_TEXTS`, which spreads it in.
 */
export const ENTRY_TEXTS = {
  product: 'Patchwell',
  footer: '© 2026 Patchwell contributors',
  skipToContent: 'Skip to main content',
  homeLink: 'Patchwell home',
  loading: 'Loading',
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
  login: {
    title: 'Log in to Patchwell',
    email: 'Email',
    password: 'Password',
    submit: 'Log In',
    noAccount: "Don't have an account?",
    signUp: 'Sign up',
    forgotPassword: 'Forgot password?',
    resendVerification: 'Resend verification email',
  },
} as const;
