import { zodResolver } from '@hookform/resolvers/zod';
import type { SessionSettings } from '@patchwell/core/shell/session-settings.schema';
import { TEXTS } from '@patchwell/core/texts';
import { ZUpdateZoneBody, type UpdateZoneBody, type Zone } from '@patchwell/core/zones/zones.schema';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { serverFieldErrors } from '../../api/field-errors';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { SessionSettingsForm } from '../zones/components/SessionSettingsForm';
import {
  updateAccountZone,
  useAccountZone,
  useSaveSessionSettings,
  useSessionSettings,
  zoneKeys,
} from '../zones/zones.api';
import { AccessKeyPanel } from './components/AccessKeyPanel';
import { ZoneMembersPanel } from './components/ZoneMembersPanel';

function ZoneNameForm({
  accountId,
  zone,
  onSaved,
  onDirtyChange,
}: {
  accountId: number;
  zone: Zone;
  onSaved: () => void;
  onDirtyChange: (isDirty: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<UpdateZoneBody>({
    resolver: zodResolver(ZUpdateZoneBody),
    mode: 'onTouched',
    defaultValues: { name: zone.name },
  });

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);

  const onValid = async (values: UpdateZoneBody) => {
    try {
      const saved = await updateAccountZone(accountId, zone.id, values);
      queryClient.setQueryData(zoneKeys.accountZone(accountId, zone.id), saved);
      await queryClient.invalidateQueries({ queryKey: zoneKeys.accountZones(accountId) });
      reset({ name: saved.name });
      notify.success(TEXTS.zones.settingsSaved);
      onSaved();
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.name) setError('name', { type: 'server', message: fieldErrors.name });
      else notify.error(errorText(error));
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid)} noValidate aria-label={CONSOLE_TEXTS.zoneEditor.nameSection}>
      <Group align="flex-start">
        <TextInput
          label={CONSOLE_TEXTS.zoneEditor.name}
          required
          w={360}
          {...register('name')}
          error={errors.name?.message}
        />
        <Button type="submit" mt={25} loading={isSubmitting}>
          {CONSOLE_TEXTS.common.save}
        </Button>
      </Group>
    </form>
  );
}

function ZoneSessionSettings({ zoneId, onDirtyChange }: { zoneId: number; onDirtyChange: (d: boolean) => void }) {
  const settings = useSessionSettings({ kind: 'zone', zoneId });
  const save = useSaveSessionSettings({ kind: 'zone', zoneId });
  const onSave = async (values: SessionSettings) => {
    try {
      await save.mutateAsync(values);
      notify.success(TEXTS.zones.settingsSaved);
    } catch (error) {
      notify.error(errorText(error));
      throw error;
    }
  };
  if (settings.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (settings.isError)
    return (
      <Alert color="red" role="alert">
        {TEXTS.generic.pageLoadFailed}
      </Alert>
    );
  return <SessionSettingsForm settings={settings.data} onSave={onSave} onDirtyChange={onDirtyChange} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** /global/setup/zones/{zoneId}: name, session settings, agent access key and users of one zone. */
export function ZoneEditorPage() {
  const { profile, zoneId: currentZoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const params = useParams();
  const zoneId = Number(params.zoneId);
  const zone = useAccountZone(accountId, zoneId);
  const refreshProfile = useRefreshProfile(currentZoneId);
  usePageTitle(zone.data?.name ?? CONSOLE_TEXTS.zoneEditor.title);

  const [dirty, setDirty] = useState({ name: false, session: false, members: false });
  const onNameDirty = useCallback((d: boolean) => setDirty((s) => ({ ...s, name: d })), []);
  const onSessionDirty = useCallback((d: boolean) => setDirty((s) => ({ ...s, session: d })), []);
  const onMembersDirty = useCallback((d: boolean) => setDirty((s) => ({ ...s, members: d })), []);
  useUnsavedChangesPrompt(dirty.name || dirty.session || dirty.members);

  const back = (
    <Anchor component={Link} to={withZone(PATHS.globalZones, currentZoneId)} size="sm">
      {CONSOLE_TEXTS.zoneEditor.back}
    </Anchor>
  );

  if (zone.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (zone.isError || !Number.isInteger(zoneId))
    return (
      <Stack gap="md">
        {back}
        <Alert color="red" role="alert">
          {TEXTS.zones.loadFailed}
        </Alert>
      </Stack>
    );

  return (
    <Stack gap="lg">
      {back}
      <Group gap="sm">
        <Title order={2} fz="h3">
          {zone.data.name}
        </Title>
        {zone.data.disabled && (
          <Badge color="gray" variant="light">
            {CONSOLE_TEXTS.globalZones.statusDisabled}
          </Badge>
        )}
      </Group>
      <Section title={CONSOLE_TEXTS.zoneEditor.nameSection}>
        <ZoneNameForm
          key={zone.data.id}
          accountId={accountId}
          zone={zone.data}
          onSaved={() => void refreshProfile()}
          onDirtyChange={onNameDirty}
        />
      </Section>
      <Section title={CONSOLE_TEXTS.session.title}>
        <ZoneSessionSettings zoneId={zoneId} onDirtyChange={onSessionDirty} />
      </Section>
      <Section title={CONSOLE_TEXTS.accessKey.title}>
        <AccessKeyPanel zoneId={zoneId} />
      </Section>
      <Card withBorder padding="lg" component="section" aria-label={CONSOLE_TEXTS.zoneMembers.title}>
        <ZoneMembersPanel
          accountId={accountId}
          zoneId={zoneId}
          onDirtyChange={onMembersDirty}
          onChanged={() => void refreshProfile()}
        />
      </Card>
    </Stack>
  );
}
