import { ENTITLEMENT_TEXTS, FEATURE_RULES, featureOfRole } from '@patchwell/core/rules/entitlements';
import { PLAN_LABELS } from '@patchwell/core/rules/tiers';
import { useShell } from '../../app/shell-context';
import { entitlementIn } from '../plans/entitlement';
import { ZONE_ROLE_OPTIONS } from './role-options';

export type RoleOption = { value: string; label: string; disabled?: boolean };

/**
 * The zone roles the current zone's plan may give, as select options: outside role-based
 * access the delegated roles are shown disabled (the server refuses them), except `held`,
 * a role the user already has, which stays as it is. `planNote` says which plan brings them.
 */
export function useZoneRoleOptions(held?: number): { options: RoleOption[]; planNote: string | null } {
  const { profile, zone } = useShell();
  const answer = entitlementIn(profile, zone, 'role_based_access');
  if (answer.kind === 'available') return { options: ZONE_ROLE_OPTIONS, planNote: null };
  return {
    options: ZONE_ROLE_OPTIONS.map((option) => {
      const id = Number(option.value);
      return featureOfRole(id) && id !== held ? { ...option, disabled: true } : option;
    }),
    planNote: ENTITLEMENT_TEXTS.needsPlan(FEATURE_RULES.role_based_access.label, PLAN_LABELS[answer.plan]),
  };
}
