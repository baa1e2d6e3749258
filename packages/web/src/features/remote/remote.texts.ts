import type { RemoteControlStatus } from '@patchwell/core/remote/remote-sessions.schema';

/**
 * Console texts of remote control and the remote shell (the spec quotes only the errors and
 * tooltips, which come from `TEXTS.remote`). Gathered into CONSOLE_TEXTS.remote (texts.ts).
 */
export const REMOTE_CONSOLE_TEXTS = {
  title: 'Remote control',
  heading: (device: string) => `Remote control: ${device}`,
  rowAction: 'Remote control',
  openFromDetail: 'Remote control',
  kindLabel: 'Session',
  screen: 'Screen',
  shell: 'Shell',
  connect: 'Connect',
  disconnect: 'Disconnect',
  statusLabel: 'Status',
  screenLabel: (device: string) => `Screen of ${device}`,
  terminalLabel: (device: string) => `Shell on ${device}`,
  viewTranscript: 'View transcript',
  transcriptTitle: 'Shell transcript',
  transcriptTruncated: 'The transcript keeps the first 256 KiB of the output; the rest was not kept.',
  transcriptEmpty: 'The shell printed nothing.',
  backToDevice: 'Back to the device',
  credentialsTitle: 'The device’s screen asks for its sign-in',
  credentialsHint:
    'Its VNC server has a sign-in of its own (on a Mac, an account allowed to use Screen Sharing). It goes to the device only, through the tunnel.',
  username: 'Username',
  password: 'Password',
  signIn: 'Sign in',
  /** One human sentence per status of the spec (spec B section 4). */
  status: {
    authenticating: 'Starting the session…',
    awaitingConsent: 'Waiting for the user on the device to allow the session…',
    consentGranted: 'The session was allowed.',
    tunnelOpening: 'Opening the tunnel to the device…',
    connecting: 'Connecting to the device…',
    connected: 'Connected',
    disconnecting: 'Disconnecting…',
    disconnected: 'Disconnected',
    connectionFailed: 'The connection failed.',
    unauthorized: 'Not authorized.',
    unavailable: 'The device is not available.',
    initializing: 'The device is initializing.',
    installing: 'Remote control is being installed on the device.',
    error: 'An error occurred.',
  } satisfies Record<RemoteControlStatus, string>,
  idle: 'Not connected',
  settingsTab: 'Remote access',
  settingsTitle: 'Remote access',
  settingsIntro:
    'Remote control shows and controls a device’s screen; the remote shell opens a terminal on it with the agent’s privileges.',
  shellEnabled: 'Allow the remote shell',
  shellEnabledHint: 'Shell sessions run with the agent’s privileges (the agent also needs --allow-changes).',
  unattended: 'Unattended access',
  unattendedHint: 'Sessions start without asking the signed-in user of the device.',
  unattendedGroups: 'Unattended access for these groups',
  unattendedGroupsHint: 'Devices of these groups start sessions without asking; the others still ask their user.',
  idleTimeout: 'Idle timeout (minutes)',
  idleTimeoutHint: 'A session with no activity either way for this long ends (1 to 240 minutes).',
  save: 'Save',
  saved: 'Remote access settings saved.',
  adminsOnly: 'Only zone administrators can change these settings.',
} as const;
