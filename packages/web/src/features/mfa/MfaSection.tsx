import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../api/error-text';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { EnrolMfa, type EnrolCalls } from './components/EnrolMfa';
import { RecoveryCodes } from './components/RecoveryCodes';
import { mfaKeys, ownTfa, useOwnTfa } from './mfa.api';

const T = CONSOLE_TEXTS.mfa;

const enrolCalls: EnrolCalls = {
  setup: ownTfa.setup,
  confirm: async (code) => (await ownTfa.confirm(code)).recovery_codes,
};

/**
 * The profile's multi-factor authentication section: enrol (app or e-mail), the recovery
 * codes shown once, turn off, new recovery codes. A current code is asked for when the
 * zone's flag `require_code_to_disable_mfa` is on.
 */
export function MfaSection() {
  const { zoneId } = useShell();
  const status = useOwnTfa(zoneId);
  const queryClient = useQueryClient();
  const refreshProfile = useRefreshProfile(zoneId ?? 0);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [isBusy, setBusy] = useState(false);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: mfaKeys.own });
    await refreshProfile();
  };

  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        onDone={() => {
          setCodes(null);
          void refresh();
        }}
      />
    );
  }
  if (status.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (status.isError) {
    return (
      <Alert color="red" role="alert">
        {errorText(status.error)}
      </Alert>
    );
  }
  const tfa = status.data;
  if (tfa.tfa_type === 'disabled') {
    return (
      <Stack gap="sm">
        <Text size="sm">{T.statusOff}</Text>
        {tfa.required && <Text size="sm">{T.required}</Text>}
        <EnrolMfa
          calls={enrolCalls}
          onEnrolled={(c) => {
            notify.success(T.enabled);
            setCodes(c);
          }}
        />
      </Stack>
    );
  }

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      setCode('');
    } catch (error) {
      notify.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const currentCode = code.trim() || undefined;
  const onDisable = () =>
    run(async () => {
      await ownTfa.disable(zoneId, currentCode);
      notify.success(T.disabled);
      await refresh();
    });
  const onRegenerate = () =>
    run(async () => {
      const fresh = await ownTfa.regenerate(zoneId, currentCode);
      setCodes(fresh.recovery_codes);
    });
  const onSendCode = () =>
    run(async () => {
      await ownTfa.sendCode();
      notify.success(T.codeSent);
    });

  return (
    <Stack gap="sm">
      <Text size="sm">{tfa.tfa_type === 'google' ? T.statusApp : T.statusEmail}</Text>
      {tfa.required && <Text size="sm">{T.required}</Text>}
      <Text size="sm">{T.recoveryLeft(tfa.recovery_codes_left)}</Text>
      {tfa.code_required_to_disable && (
        <Group align="flex-end" gap="xs">
          <TextInput
            label={T.currentCode}
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            maw={260}
          />
          {tfa.tfa_type === 'email' && (
            <Button variant="subtle" onClick={() => void onSendCode()} disabled={isBusy}>
              {T.sendCode}
            </Button>
          )}
        </Group>
      )}
      <Group>
        <Button variant="default" onClick={() => void onRegenerate()} loading={isBusy}>
          {T.regenerate}
        </Button>
        <Button color="red" variant="light" onClick={() => void onDisable()} loading={isBusy}>
          {T.disable}
        </Button>
      </Group>
    </Stack>
  );
}
