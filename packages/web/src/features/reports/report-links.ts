import type { Profile } from '@patchwell/core/auth/profile.schema';
import { isFeatureOn } from '../../app/access';
import { PATHS } from '../../app/paths';
import { withZone } from '../../app/zone';

export type ReportLink = { label: string; description: string; to: string };

/** The reports (spec B section 2); Policy Results only with its flag. */
export function reportLinks(profile: Profile, zoneId: number | undefined): ReportLink[] {
  const z = (path: string) => withZone(path, zoneId);
  const links: ReportLink[] = [
    { label: 'Overview', description: 'Compliance and patch activity at a glance.', to: z(PATHS.reportsOverview) },
    {
      label: 'Pre-Patch',
      description: 'Pending patches by severity and age, and their devices.',
      to: z(PATHS.reportsPrepatch),
    },
    {
      label: 'Needs Attention',
      description: 'Devices that are not compliant, and why.',
      to: z(PATHS.reportsNeedsAttention),
    },
    {
      label: 'Data Extracts',
      description: 'Patch history, inventory, software and activity, up to 90 days back.',
      to: z(PATHS.reportsDataExtracts),
    },
    { label: 'Activity Log', description: 'Actions taken in this zone.', to: z(PATHS.reportsActivityLog) },
    {
      label: 'Scheduled Reports',
      description: 'Reports mailed with their CSV, daily, weekly or monthly.',
      to: z(PATHS.reportsSchedules),
    },
  ];
  if (isFeatureOn(profile, 'policy_results_page')) {
    links.push({
      label: 'Policy Results',
      description: 'Results of policies run in the last 30 days.',
      to: z(PATHS.reportsPolicyResults),
    });
  }
  return links;
}
