import { zodResolver } from '@hookform/resolvers/zod';
import { TEXTS } from '@patchwell/core/texts';
import type { AccountUser, InviteUserResult } from '@patchwell/core/users/users.schema';
import { GLOBAL_ADMIN_ROLE_NAME } from '@patchwell/core/zones/roles';
import { Alert, Button, Card, Group, Loader, Modal, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { errorText } from '../../api/error-text';
import { serverFieldErrors } from '../../api/field-errors';
import { PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { BackLinkPage } from '../../ui/BackLinkPage';
import { useUnsavedChangesPrompt } from '../../ui/useUnsavedChangesPrompt';
import { InvitationOutcome, isMailHeld } from '../users/components/InvitationOutcome';

type InvitationMail = Pick<InviteUserResult, 'mail' | 'accept_link'>;
import { UserStatusBadges } from '../users/components/UserStatusBadges';
import {
  createAccountUser,
  deleteAccountUser,
  unlockUser,
  updateAccountUser,
  useAccountUser,
  userKeys,
} from '../users/users.api';
import { useAccountZones, zoneKeys } from '../zones/zones.api';
import { ZoneRolePairs } from './components/ZoneRolePairs';
import {
  ZCreateUserForm,
  ZEditUserForm,
  editUserDefaults,
  type CreateUserFormInput,
  type CreateUserFormOutput,
} from './user-form';

type Field = FieldPath<CreateUserFormInput>;
const FORM_FIELDS = /^(firstname|lastname|email|account_rbac_role|zones\.\d+\.(zone_id|role_id))$/;

const ACCOUNT_ROLE_OPTIONS = [
  { value: 'no-global-access', label: CONSOLE_TEXTS.userEditor.noGlobalAccess },
  { value: 'global-admin', label: GLOBAL_ADMIN_ROLE_NAME },
];

function UserForm({ user, onDone }: { user?: AccountUser; onDone: (user?: AccountUser) => void }) {
  const { profile, zone, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const isCreate = !user;
  const queryClient = useQueryClient();
  const refreshProfile = useRefreshProfile(zoneId);
  const zones = useAccountZones(accountId);
  const [formError, setFormError] = useState<string | null>(null);
  const [isSaved, setSaved] = useState(false);
  // A created user whose invitation e-mail waits in the outbox: the page stays until the link is seen.
  const [held, setHeld] = useState<{ email: string; result: InvitationMail } | null>(null);
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<CreateUserFormInput, unknown, CreateUserFormOutput>({
    resolver: zodResolver(isCreate ? ZCreateUserForm : ZEditUserForm),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: user
      ? editUserDefaults(user)
      : {
          firstname: '',
          lastname: '',
          email: '',
          account_rbac_role: 'no-global-access',
          zones: [{ zone_id: '', role_id: '' }],
        },
  });

  useUnsavedChangesPrompt(isDirty && !isSaved);

  useEffect(() => {
    if (isSaved) onDone(user);
  }, [isSaved, onDone, user]);

  const onValid = async (values: CreateUserFormOutput) => {
    setFormError(null);
    let isHeld = false;
    try {
      if (isCreate) {
        const created = await createAccountUser(accountId, values);
        if (created.invitation && isMailHeld(created.invitation)) {
          setHeld({ email: values.email, result: created.invitation });
          isHeld = true;
        } else {
          notify.success(CONSOLE_TEXTS.userEditor.created(values.email));
        }
      } else {
        const { email: _email, ...body } = values;
        await updateAccountUser(accountId, user.id, body);
        notify.success(CONSOLE_TEXTS.userEditor.saved);
        reset(values as unknown as CreateUserFormInput);
      }
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      await queryClient.invalidateQueries({ queryKey: zoneKeys.accountZones(accountId) });
      await refreshProfile();
      if (isCreate && !isHeld) setSaved(true);
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      const other: string[] = [];
      for (const [key, message] of Object.entries(fieldErrors)) {
        if (FORM_FIELDS.test(key)) setError(key as Field, { type: 'server', message });
        else other.push(message);
      }
      setFormError(other.length ? other.join('\n') : Object.keys(fieldErrors).length ? TEXTS.validation.summary : null);
      if (!Object.keys(fieldErrors).length) notify.error(errorText(error));
    }
  };

  const isSamlZone = !!zone?.saml.enabled;

  return (
    <form onSubmit={handleSubmit(onValid, () => setFormError(TEXTS.validation.summary))} noValidate>
      <Modal opened={held !== null} onClose={() => setSaved(true)} title={CONSOLE_TEXTS.users.resentTitle} size="lg">
        {held && (
          <Stack gap="md">
            <InvitationOutcome email={held.email} result={held.result} />
            <Group justify="flex-end">
              <Button onClick={() => setSaved(true)}>{CONSOLE_TEXTS.users.done}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
      <Stack gap="md" maw={720}>
        {formError && (
          <Alert color="red" role="alert" styles={{ message: { whiteSpace: 'pre-line' } }}>
            {formError}
          </Alert>
        )}
        <Group grow align="flex-start">
          <TextInput
            label={CONSOLE_TEXTS.profile.firstname}
            required
            {...register('firstname')}
            error={errors.firstname?.message}
          />
          <TextInput
            label={CONSOLE_TEXTS.profile.lastname}
            required
            {...register('lastname')}
            error={errors.lastname?.message}
          />
        </Group>
        {isCreate ? (
          <TextInput
            label={CONSOLE_TEXTS.users.email}
            type="email"
            required
            {...register('email')}
            error={errors.email?.message}
          />
        ) : (
          <TextInput
            label={CONSOLE_TEXTS.users.email}
            value={user.email}
            disabled
            description={isSamlZone ? CONSOLE_TEXTS.profile.emailSaml : CONSOLE_TEXTS.userEditor.emailFixed}
            readOnly
          />
        )}
        <NativeSelect
          label={CONSOLE_TEXTS.userEditor.accountRole}
          data={ACCOUNT_ROLE_OPTIONS}
          {...register('account_rbac_role')}
          error={errors.account_rbac_role?.message}
        />
        <Stack gap={4}>
          <Text fw={600} size="sm" component="h3" m={0}>
            {CONSOLE_TEXTS.userEditor.zones}
          </Text>
          <ZoneRolePairs control={control} register={register} errors={errors} zones={zones.data ?? []} />
        </Stack>
        <Group>
          <Button type="submit" loading={isSubmitting}>
            {isCreate ? CONSOLE_TEXTS.userEditor.create : CONSOLE_TEXTS.common.save}
          </Button>
          <Button variant="default" component={Link} to={withZone(PATHS.globalUsers, zoneId)}>
            {CONSOLE_TEXTS.common.cancel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AccountActions({ user }: { user: AccountUser }) {
  const { profile, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = `${user.firstname} ${user.lastname}`.trim() || user.email;
  const isSelf = user.id === profile.id;

  const refresh = () => queryClient.invalidateQueries({ queryKey: userKeys.all });
  const run = (action: () => Promise<unknown>, success: string, then?: () => void) =>
    void action().then(
      async () => {
        notify.success(success);
        await refresh();
        then?.();
      },
      (error: unknown) => notify.apiError(error),
    );

  const onStatus = () => {
    const disabling = user.status !== 'disabled';
    confirmAction({
      title: disabling ? CONSOLE_TEXTS.users.disableTitle : CONSOLE_TEXTS.users.enableTitle,
      message: disabling ? CONSOLE_TEXTS.users.disableBody(name) : CONSOLE_TEXTS.users.enableBody(name),
      confirmLabel: disabling ? CONSOLE_TEXTS.users.disable : CONSOLE_TEXTS.users.enable,
      isDanger: disabling,
      onConfirm: () =>
        run(
          () => updateAccountUser(accountId, user.id, { status: disabling ? 'disabled' : 'active' }),
          disabling ? CONSOLE_TEXTS.users.disabled(name) : CONSOLE_TEXTS.users.enabled(name),
        ),
    });
  };

  const onUnlock = () =>
    confirmAction({
      title: CONSOLE_TEXTS.users.unlockTitle,
      message: CONSOLE_TEXTS.users.unlockBody(name),
      confirmLabel: CONSOLE_TEXTS.users.unlock,
      onConfirm: () => run(() => unlockUser(zoneId ?? 0, user.id), CONSOLE_TEXTS.users.unlocked(name)),
    });

  const onRemove = () =>
    confirmAction({
      title: CONSOLE_TEXTS.users.removeAccountTitle,
      message: CONSOLE_TEXTS.users.removeAccountBody(name),
      confirmLabel: CONSOLE_TEXTS.users.remove,
      isDanger: true,
      onConfirm: () =>
        run(
          () => deleteAccountUser(accountId, user.id),
          CONSOLE_TEXTS.users.removed,
          () => navigate(withZone(PATHS.globalUsers, zoneId)),
        ),
    });

  return (
    <Card withBorder padding="lg" component="section" aria-label={CONSOLE_TEXTS.userEditor.accessSection}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {CONSOLE_TEXTS.userEditor.accessSection}
        </Title>
        <Group gap="xs">
          <UserStatusBadges status={user.status} locked={user.locked} />
        </Group>
        <Group>
          {user.locked && (
            <Button variant="default" onClick={onUnlock}>
              {CONSOLE_TEXTS.users.unlock}
            </Button>
          )}
          {!isSelf && user.status !== 'pending-invite' && (
            <Button variant="default" color={user.status === 'disabled' ? undefined : 'red'} onClick={onStatus}>
              {user.status === 'disabled' ? CONSOLE_TEXTS.users.enable : CONSOLE_TEXTS.users.disable}
            </Button>
          )}
          {!isSelf && (
            <Button color="red" variant="light" onClick={onRemove}>
              {CONSOLE_TEXTS.users.removeFromAccount}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { zoneId } = useShell();
  return (
    <BackLinkPage
      title={title}
      back={{ to: withZone(PATHS.globalUsers, zoneId), label: CONSOLE_TEXTS.userEditor.back }}
    >
      {children}
    </BackLinkPage>
  );
}

/** /global/setup/users/create-user: creates a user of the account and sends the invitation. */
export function CreateUserPage() {
  const { zoneId } = useShell();
  const navigate = useNavigate();
  return (
    <Frame title={CONSOLE_TEXTS.userEditor.createTitle}>
      <UserForm onDone={() => navigate(withZone(PATHS.globalUsers, zoneId))} />
    </Frame>
  );
}

/** /global/setup/users/{userId}: names, account role, zones and roles, status, unlock, removal. */
export function UserEditorPage() {
  const { profile } = useShell();
  const params = useParams();
  const userId = Number(params.userId);
  const user = useAccountUser(profile.account_id ?? 0, userId);
  const title = user.data ? `${user.data.firstname} ${user.data.lastname}`.trim() || user.data.email : '';
  if (user.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (user.isError)
    return (
      <Frame title={CONSOLE_TEXTS.userEditor.title}>
        <Alert color="red" role="alert">
          {CONSOLE_TEXTS.userEditor.loadFailed}
        </Alert>
      </Frame>
    );
  return (
    <Frame title={title || CONSOLE_TEXTS.userEditor.title}>
      <UserForm key={user.dataUpdatedAt} user={user.data} onDone={() => undefined} />
      <AccountActions user={user.data} />
    </Frame>
  );
}
