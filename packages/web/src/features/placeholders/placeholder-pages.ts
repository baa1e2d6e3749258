/**
 * Pages whose content arrives with later work. Each shows its title and one line about
 * what will appear there, never sample data.
 */
export const PLACEHOLDER_PAGES = {
  globalDevices: {
    title: 'Global Devices',
    description: 'Devices of every zone in your account appear here once agents enrol.',
  },
} as const satisfies Record<string, { title: string; description: string }>;

export type PlaceholderId = keyof typeof PLACEHOLDER_PAGES;
