/**
 * Feature flags (spec A section 6, spec B section 9). Stored per account and per zone on
 * the server (a zone value overrides the account's), delivered with the profile as
 * `features`. Everything is off by default except automated vulnerability remediation.
 */
export const FEATURE_FLAGS = {
  mo: false, // multi-org: shows the zone switcher to users without an account id
  automated_vulnerability_remediation: true,
  custom_worklet_notifications: false,
  policy_results_page: false,
  auth_milestone_1: false, // forgot-password and password-reset routes
  auth_milestone_2: false, // the Security settings tab
  saml_migration_warning: false,
  configurations_routes: false, // "view configurations"
  refresh_before_policy_execution: false,
  zone_reauthentication: false,
  onboarding_zero_state: false,
  maintenance_windows: false,
  integration_agent_deploy: false,
  require_code_to_disable_mfa: false,
  remote_control: false,
  clone_policy: false,
  global_devices_table: false,
} as const satisfies Record<string, boolean>;

export type FeatureFlag = keyof typeof FEATURE_FLAGS;
export type Features = Record<FeatureFlag, boolean>;
export const FEATURE_FLAG_NAMES = Object.keys(FEATURE_FLAGS) as FeatureFlag[];

export function isFeatureFlag(name: string): name is FeatureFlag {
  return Object.hasOwn(FEATURE_FLAGS, name);
}

/** Resolve flags: defaults, then account overrides, then zone overrides. */
export function resolveFeatures(
  account: Partial<Record<string, boolean>> = {},
  zone: Partial<Record<string, boolean>> = {},
): Features {
  const out = { ...FEATURE_FLAGS } as Features;
  for (const layer of [account, zone]) {
    for (const [name, value] of Object.entries(layer)) {
      if (isFeatureFlag(name) && typeof value === 'boolean') out[name] = value;
    }
  }
  return out;
}
