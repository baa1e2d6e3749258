import type { MfaFactorType, TfaSetup } from '@patchwell/core/auth/mfa.schema';
import { Alert, Button, Code, Group, Image, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorText } from '../../../api/error-text';
import { CONSOLE_TEXTS } from '../../../texts';
import { CopyValueButton } from '../../../ui/CopyValueButton';

const T = CONSOLE_TEXTS.mfa;

export type EnrolCalls = {
  setup: (type: MfaFactorType) => Promise<TfaSetup>;
  /** Confirms with the first code; resolves to the recovery codes. */
  confirm: (code: string) => Promise<string[]>;
};

/**
 * Enrolling a second factor: choose the app (QR code and secret from the server) or e-mail
 * codes, then confirm with a first code. Used by the profile and by a sign-in that a
 * requirement sends to enrol.
 */
export function EnrolMfa({ calls, onEnrolled }: { calls: EnrolCalls; onEnrolled: (codes: string[]) => void }) {
  const [type, setType] = useState<MfaFactorType>('google');
  const [setup, setSetup] = useState<TfaSetup | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const onStart = () => run(async () => setSetup(await calls.setup(type)));
  const onConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => onEnrolled(await calls.confirm(code)));
  };

  return (
    <Stack gap="sm">
      {error && (
        <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
          {error}
        </Alert>
      )}
      {!setup ? (
        <>
          <Radio.Group label={T.chooseMethod} value={type} onChange={(v) => setType(v as MfaFactorType)}>
            <Group mt="xs">
              <Radio value="google" label={T.methodApp} />
              <Radio value="email" label={T.methodEmail} />
            </Group>
          </Radio.Group>
          <Group>
            <Button onClick={() => void onStart()} loading={isBusy}>
              {T.start}
            </Button>
          </Group>
        </>
      ) : (
        <form onSubmit={onConfirm} noValidate>
          <Stack gap="sm">
            {setup.type === 'google' ? (
              <>
                <Text size="sm">{T.scanQr}</Text>
                {setup.qr_code && <Image src={setup.qr_code} alt={T.qrAlt} w={200} h={200} />}
                <Group gap="xs">
                  <Text size="sm">{T.secret}:</Text>
                  <Code data-testid="mfa-secret">{setup.secret}</Code>
                  <CopyValueButton value={setup.secret ?? ''} label={T.copySecret} />
                </Group>
              </>
            ) : (
              <Group gap="xs">
                <Text size="sm">{T.emailSent(setup.sent_to ?? '')}</Text>
                <Button variant="subtle" size="compact-sm" onClick={() => void onStart()}>
                  {T.resend}
                </Button>
              </Group>
            )}
            <TextInput
              label={T.code}
              description={T.codeHelp}
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              maw={220}
            />
            <Group>
              <Button type="submit" loading={isBusy} disabled={!code.trim()}>
                {T.confirm}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
