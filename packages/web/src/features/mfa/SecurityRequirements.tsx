import { Alert, Loader, Stack, Switch, Text } from '@mantine/core';
import { TEXTS } from '@patchwell/core/texts';
import { errorText } from '../../api/error-text';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { useSetZoneRequirement, useZoneSecurity } from './mfa.api';

const T = CONSOLE_TEXTS.mfa;

/**
 * The security page's sign-in requirements of the zone: require MFA (TFA.modify) and,
 * beside it, require SSO (Saml.manage: the zone's SAML setting), which needs a SAML
 * connection on the account.
 */
export function SecurityRequirements({
  zoneId,
  canSetMfa,
  canSetSso,
}: {
  zoneId: number;
  canSetMfa: boolean;
  canSetSso: boolean;
}) {
  const security = useZoneSecurity(zoneId);
  const setMfa = useSetZoneRequirement(zoneId, 'mfa');
  const setSso = useSetZoneRequirement(zoneId, 'sso');

  if (security.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (security.isError) {
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.pageLoadFailed}
      </Alert>
    );
  }
  const s = security.data;
  const onToggle = async (mutation: typeof setMfa, enabled: boolean) => {
    try {
      await mutation.mutateAsync(enabled);
      notify.success(T.requirementSaved);
    } catch (error) {
      notify.error(errorText(error));
    }
  };
  return (
    <Stack gap="md">
      <Switch
        label={T.requireMfa}
        description={s.account_require_mfa ? `${T.requireMfaHelp} ${T.accountRequires}` : T.requireMfaHelp}
        checked={s.require_mfa}
        disabled={!canSetMfa || setMfa.isPending}
        onChange={(e) => void onToggle(setMfa, e.currentTarget.checked)}
      />
      <Switch
        label={T.requireSso}
        description={T.requireSsoHelp}
        checked={s.require_sso}
        disabled={!canSetSso || setSso.isPending || (!s.require_sso && !s.sso_available)}
        onChange={(e) => void onToggle(setSso, e.currentTarget.checked)}
      />
      {!s.sso_available && !s.require_sso && (
        <Text size="sm" c="dimmed">
          {T.ssoUnavailable}
        </Text>
      )}
    </Stack>
  );
}
