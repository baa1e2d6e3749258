/** Console texts of the Manage area (System home and the macOS guide). */
export const MANAGE_TEXTS = {
  macTitle: 'Get Started with macOS',
  macIntro:
    'macOS devices join this zone through the Patchwell agent. Install it on each Mac, and the device appears in your device list after its first check-in.',
  macStep1: 'Install the agent',
  macStep1Body:
    'In Terminal on the Mac, as an administrator, run this command. It downloads the agent, checks its SHA-256, enrols it with this zone’s key and installs it as a launchd daemon. The agent needs Node.js 20 or later.',
  macCopy: 'Copy the macOS command',
  macCommand: 'macOS install command',
  macKeyHidden:
    'The zone’s access key is only shown to zone administrators: ask one to replace the key placeholder in the command.',
  macStep2: 'Allow the agent',
  macStep2Body:
    'macOS may report a new background item for the agent; leave it allowed in System Settings › General › Login Items so the agent keeps running.',
  macStep3: 'Check that the device has joined',
  macStep3Body: 'The Mac appears within a minute and is scanned for software and available updates.',
  macDevicesLink: 'See macOS devices',
  macApnsStep: 'Set up Apple push notifications',
  macApnsBody:
    'Managing Macs through Apple’s push service needs this zone’s APNS certificate, issued by Apple and renewed every year.',
  macApnsLink: 'Open APNS settings',
  macStep4: 'Patch it',
  macStep4Body: 'Create a patch policy that targets the Mac’s group to install its updates on a schedule.',
  macPolicyLink: 'Create a patch policy',
  macCardLabel: 'macOS devices',
  macCardDescription: 'How to bring macOS devices into this zone.',
  macCardButton: 'Get started',
} as const;
