import type { SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../api/error-text';
import { can } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { SessionSettingsForm } from '../zones/components/SessionSettingsForm';
import { useSaveSessionSettings, useSessionSettings } from '../zones/zones.api';
import { SecurityRequirements } from '../mfa/SecurityRequirements';

function ZoneSessionSettings({ zoneId }: { zoneId: number }) {
  const scope = { kind: 'zone', zoneId } as const;
  const settings = useSessionSettings(scope);
  const save = useSaveSessionSettings(scope);
  const [isDirty, setDirty] = useState(false);
  useUnsavedChangesPrompt(isDirty);

  const onSave = async (values: SessionSettings) => {
    try {
      await save.mutateAsync(values);
      notify.success(TEXTS.success.sessionTimeoutsUpdated);
    } catch (error) {
      notify.error(errorText(error));
      throw error;
    }
  };

  if (settings.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (settings.isError) {
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.pageLoadFailed}
      </Alert>
    );
  }
  return <SessionSettingsForm settings={settings.data} onSave={onSave} onDirtyChange={setDirty} />;
}

/**
 * /settings/security: the current zone's session lifetime and idle timeout, for its
 * administrators (Organization.manage); the bounds apply to the sessions of every user of
 * the zone at once; and the zone's sign-in requirements, MFA (TFA.modify) and SSO (Saml.manage).
 */
export function SecurityPage() {
  usePageTitle(CONSOLE_TEXTS.security.title);
  const { profile, zoneId } = useShell();
  const mayManage = zoneId !== undefined && can(profile, zoneId, 'Organization', 'manage');
  const mayReadTfa = zoneId !== undefined && can(profile, zoneId, 'TFA', 'read');
  return (
    <Stack gap="md">
      <Title order={2} fz="h3">
        {CONSOLE_TEXTS.security.title}
      </Title>
      <Card withBorder padding="lg" component="section" aria-label={CONSOLE_TEXTS.session.title}>
        <Stack gap="sm">
          <Title order={3} fz="h4">
            {CONSOLE_TEXTS.session.title}
          </Title>
          {mayManage ? <ZoneSessionSettings zoneId={zoneId} /> : <Text>{CONSOLE_TEXTS.security.adminsOnly}</Text>}
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-label={CONSOLE_TEXTS.mfa.requirementsTitle}>
        <Stack gap="sm">
          <Title order={3} fz="h4">
            {CONSOLE_TEXTS.mfa.requirementsTitle}
          </Title>
          {mayReadTfa ? (
            <SecurityRequirements
              zoneId={zoneId}
              canSetMfa={can(profile, zoneId, 'TFA', 'modify')}
              canSetSso={can(profile, zoneId, 'Saml', 'manage')}
            />
          ) : (
            <Text>{CONSOLE_TEXTS.mfa.requirementsAdminsOnly}</Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
