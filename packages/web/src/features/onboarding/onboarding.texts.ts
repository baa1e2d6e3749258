import type { OnboardingStepKey } from '@patchwell/core/onboarding/onboarding.schema';

export const ONBOARDING_TEXTS = {
  title: 'Quick start guide',
  intro:
    'Five steps take a device from enrolled to patched. Each step is checked off when it has happened in this zone.',
  done: 'Done',
  todo: 'To do',
  completed: 'You have completed the quick start guide.',
  toDashboard: 'Go to the dashboard',
  steps: {
    set_up: {
      title: 'Set up',
      body: 'Your account and this zone are ready.',
      action: 'Zone settings',
    },
    add_device: {
      title: 'Add a device',
      body: 'Install the agent on a device with this zone’s access key.',
      action: 'Add devices',
    },
    scan: {
      title: 'Scan for updates',
      body: 'The agent reports the device’s software and available patches after it enrolls; select it in the devices list and choose Scan to ask again.',
      action: 'Open devices',
    },
    review: {
      title: 'Review results',
      body: 'See which patches are pending, by severity and age.',
      action: 'Open the Pre-Patch report',
    },
    patch: {
      title: 'Patch the device',
      body: 'Install the pending patches on the device from its page or with a patch policy.',
      action: 'Open devices',
    },
  } satisfies Record<OnboardingStepKey, { title: string; body: string; action: string }>,
};
