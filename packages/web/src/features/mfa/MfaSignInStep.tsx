import type { GetTfa } from '@patchwell/core/auth/mfa.schema';
import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { errorText } from '../../api/error-text';
import { CONSOLE_TEXTS } from '../../texts';
import { EnrolMfa, type EnrolCalls } from './components/EnrolMfa';
import { RecoveryCodes } from './components/RecoveryCodes';
import { signInStep } from './mfa.api';

const T = CONSOLE_TEXTS.mfa;

const enrolCalls: EnrolCalls = {
  setup: signInStep.setup,
  confirm: async (code) => (await signInStep.confirm(code)).recovery_codes ?? [],
};

const alert = (message: string) => (
  <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
    {message}
  </Alert>
);

/**
 * The login page's second step, after a right password: the code (app, e-mailed, or a
 * recovery code), or the enrolment a requirement asks for. `onSignedIn` runs once the server
 * has started the session.
 */
export function MfaSignInStep({
  email,
  onSignedIn,
  onCancel,
}: {
  email: string;
  onSignedIn: () => void;
  onCancel: () => void;
}) {
  const [tfa, setTfa] = useState<GetTfa | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [isRecovery, setRecovery] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  useEffect(() => {
    let isCurrent = true;
    signInStep.getTfa(email).then(
      (answer) => isCurrent && setTfa(answer),
      (e: unknown) => isCurrent && setError(errorText(e)),
    );
    return () => {
      isCurrent = false;
    };
  }, [email]);

  const onVerify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signInStep.verify(code);
      onSignedIn();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  const onResend = async () => {
    setError(null);
    try {
      setTfa(await signInStep.getTfa(email));
      setNotice(T.resent);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const back = (
    <Anchor component="button" type="button" size="sm" onClick={onCancel}>
      {T.backToLogin}
    </Anchor>
  );

  if (codes) return <RecoveryCodes codes={codes} onDone={onSignedIn} doneLabel={T.continue} />;
  if (!tfa) {
    return (
      <Stack gap="md">
        <Title order={1} fz="h2">
          {T.stepTitle}
        </Title>
        {error ? alert(error) : <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
        {back}
      </Stack>
    );
  }
  if (tfa.enrol_required) {
    return (
      <Stack gap="md">
        <Title order={1} fz="h2">
          {T.enrolTitle}
        </Title>
        <Text size="sm">{T.required}</Text>
        <EnrolMfa calls={enrolCalls} onEnrolled={setCodes} />
        {back}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {T.stepTitle}
      </Title>
      {error && alert(error)}
      {notice && !error && (
        <Text size="sm" role="status">
          {notice}
        </Text>
      )}
      <Text size="sm">{tfa.tfa_type === 'email' ? T.stepEmail : T.stepApp}</Text>
      <form onSubmit={onVerify} noValidate>
        <Stack gap="md">
          <TextInput
            label={isRecovery ? T.recoveryCode : T.code}
            autoComplete="one-time-code"
            inputMode={isRecovery ? 'text' : 'numeric'}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            data-autofocus
          />
          <Button type="submit" loading={isBusy} disabled={!code.trim()} fullWidth>
            {T.verify}
          </Button>
        </Stack>
      </form>
      <Group justify="space-between">
        <Anchor component="button" type="button" size="sm" onClick={() => setRecovery((r) => !r)}>
          {isRecovery ? T.useCode : T.useRecovery}
        </Anchor>
        {tfa.tfa_type === 'email' && (
          <Anchor component="button" type="button" size="sm" onClick={() => void onResend()}>
            {T.resend}
          </Anchor>
        )}
      </Group>
      {back}
    </Stack>
  );
}
