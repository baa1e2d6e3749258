import type { SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Card, Loader, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../api/error-text';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { SessionSettingsForm } from '../zones/components/SessionSettingsForm';
import { FeatureFlagsPanel } from './components/FeatureFlagsPanel';
import { AccountMfaRequirement } from '../mfa/AccountMfaRequirement';
import { useSaveSessionSettings, useSessionSettings } from '../zones/zones.api';

/** /global/setup/settings: session expiration for every zone of the account, require MFA, and feature flags per account and zone. */
export function GlobalSettingsPage() {
  usePageTitle(CONSOLE_TEXTS.globalSettings.title);
  const { profile } = useShell();
  const scope = { kind: 'account', accountId: profile.account_id ?? 0 } as const;
  const settings = useSessionSettings(scope);
  const save = useSaveSessionSettings(scope);
  const [isDirty, setDirty] = useState(false);
  useUnsavedChangesPrompt(isDirty);

  const onSave = async (values: SessionSettings) => {
    try {
      await save.mutateAsync(values);
      notify.success(CONSOLE_TEXTS.globalSettings.saved);
    } catch (error) {
      notify.error(errorText(error));
      throw error;
    }
  };

  return (
    <Stack gap="md">
      <Title order={2} fz="h3">
        {CONSOLE_TEXTS.globalSettings.title}
      </Title>
      <Card withBorder padding="lg" component="section" aria-label={CONSOLE_TEXTS.session.title}>
        <Stack gap="sm">
          <Title order={3} fz="h4">
            {CONSOLE_TEXTS.session.title}
          </Title>
          {settings.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
          {settings.isError && (
            <Alert color="red" role="alert">
              {TEXTS.generic.pageLoadFailed}
            </Alert>
          )}
          {settings.data && <SessionSettingsForm settings={settings.data} onSave={onSave} onDirtyChange={setDirty} />}
        </Stack>
      </Card>
      {profile.account_id !== null && <AccountMfaRequirement accountId={profile.account_id} />}
      {profile.account_id !== null && (
        <FeatureFlagsPanel
          accountId={profile.account_id}
          zones={profile.orgs.map((o) => ({ id: o.id, name: o.name }))}
        />
      )}
    </Stack>
  );
}
