import {
  REMOTE_IDLE_MINUTES_MAX,
  REMOTE_IDLE_MINUTES_MIN,
  type RemoteSettings,
} from '@patchwell/core/remote/remote-sessions.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../api/error-text';
import { can } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { useRemoteSettings, useSaveRemoteSettings } from './remote.api';

const T = CONSOLE_TEXTS.remote;

function RemoteSettingsForm({
  zoneId,
  settings,
  canChange,
}: {
  zoneId: number;
  settings: RemoteSettings;
  canChange: boolean;
}) {
  const save = useSaveRemoteSettings(zoneId);
  const groups = useGroups(zoneId);
  const [values, setValues] = useState(settings);
  const sameGroups = (a: number[], b: number[]) => a.length === b.length && a.every((id) => b.includes(id));
  const isIdleValid =
    Number.isInteger(values.idle_timeout_minutes) &&
    values.idle_timeout_minutes >= REMOTE_IDLE_MINUTES_MIN &&
    values.idle_timeout_minutes <= REMOTE_IDLE_MINUTES_MAX;
  const isDirty =
    values.shell_enabled !== settings.shell_enabled ||
    values.unattended !== settings.unattended ||
    !sameGroups(values.unattended_group_ids, settings.unattended_group_ids) ||
    values.idle_timeout_minutes !== settings.idle_timeout_minutes;

  const onSave = async () => {
    try {
      setValues(await save.mutateAsync(values));
      notify.success(T.saved);
    } catch (error) {
      notify.error(errorText(error));
    }
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      <Stack gap="md">
        <Switch
          label={T.shellEnabled}
          description={T.shellEnabledHint}
          checked={values.shell_enabled}
          disabled={!canChange}
          onChange={(event) => setValues({ ...values, shell_enabled: event.currentTarget.checked })}
        />
        <Switch
          label={T.unattended}
          description={T.unattendedHint}
          checked={values.unattended}
          disabled={!canChange}
          onChange={(event) => setValues({ ...values, unattended: event.currentTarget.checked })}
        />
        {!values.unattended && (
          <MultiSelect
            label={T.unattendedGroups}
            description={T.unattendedGroupsHint}
            searchable
            clearable
            maw={480}
            data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
            value={values.unattended_group_ids.map(String)}
            disabled={!canChange || groups.isPending}
            onChange={(ids) => setValues({ ...values, unattended_group_ids: ids.map(Number) })}
          />
        )}
        <NumberInput
          label={T.idleTimeout}
          description={T.idleTimeoutHint}
          min={REMOTE_IDLE_MINUTES_MIN}
          max={REMOTE_IDLE_MINUTES_MAX}
          allowDecimal={false}
          allowNegative={false}
          w={240}
          value={values.idle_timeout_minutes}
          disabled={!canChange}
          error={isIdleValid ? undefined : T.idleTimeoutHint}
          onChange={(value) => setValues({ ...values, idle_timeout_minutes: typeof value === 'number' ? value : NaN })}
        />
        {canChange && (
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!isDirty || !isIdleValid}>
              {T.save}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/**
 * /settings/remote-access (with the remote-control flag): the zone's remote shell, unattended
 * access and idle timeout (decision 0016). Everyone who sees devices reads them; only zone
 * administrators (Organization.manage) change them, as the server enforces.
 */
export function RemoteSettingsPage() {
  usePageTitle(T.settingsTitle);
  const { profile, zoneId = 0 } = useShell();
  const settings = useRemoteSettings(zoneId);
  const canChange = can(profile, zoneId, 'Organization', 'manage');
  return (
    <Card withBorder padding="lg" component="section" aria-label={T.settingsTitle}>
      <Stack gap="sm">
        <Title order={2} fz="h3">
          {T.settingsTitle}
        </Title>
        <Text size="sm">{T.settingsIntro}</Text>
        {!canChange && <Text size="sm">{T.adminsOnly}</Text>}
        {settings.isPending ? (
          <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />
        ) : settings.isError ? (
          <Alert color="red" role="alert">
            {TEXTS.generic.pageLoadFailed}
          </Alert>
        ) : (
          <RemoteSettingsForm zoneId={zoneId} settings={settings.data} canChange={canChange} />
        )}
      </Stack>
    </Card>
  );
}
