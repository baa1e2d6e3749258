import { CONNECTION_TEXTS, type Connection } from '@patchwell/core/sso/connections.schema';
import { Alert, Button, Card, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { CopyValueButton } from '../../ui/CopyValueButton';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { BackLinkPage } from '../../ui/BackLinkPage';
import { ConnectionForm } from './components/ConnectionForm';
import { createConnection, deleteConnection, ssoKeys, updateConnection, useConnection } from './sso.api';
import { SSO_TEXTS } from './sso.texts';

const T = SSO_TEXTS.detail;

function Frame({ title, children }: { title: string; children: ReactNode }) {
  const { zoneId } = useShell();
  return (
    <BackLinkPage
      title={title}
      back={{ to: withZone(PATHS.connectionList, zoneId), label: SSO_TEXTS.connections.back }}
    >
      {children}
    </BackLinkPage>
  );
}

/** /global/setup/authentication/create-connection. */
export function CreateConnectionPage() {
  const { profile, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onSaved = useCallback(
    (c: Connection) => {
      notify.success(CONNECTION_TEXTS.created);
      void queryClient.invalidateQueries({ queryKey: ssoKeys.account(accountId) });
      void navigate(withZone(pathTo(PATHS.globalConnectionDetail, { connectionId: c.id }), zoneId));
    },
    [accountId, navigate, queryClient, zoneId],
  );
  return (
    <Frame title={SSO_TEXTS.connections.createTitle}>
      <ConnectionForm
        submitLabel={SSO_TEXTS.form.create}
        onSubmit={(body) => createConnection(accountId, body)}
        onSaved={onSaved}
      />
    </Frame>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
        <CopyValueButton value={value} label={T.copy(label)} />
      </Group>
    </Stack>
  );
}

function ServiceProvider({ connection }: { connection: Connection }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={T.sp}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {T.sp}
        </Title>
        {connection.sp ? (
          <>
            <CopyRow label={T.metadataUrl} value={connection.sp.metadata_url} />
            <CopyRow label={T.acsUrl} value={connection.sp.acs_url} />
            <CopyRow label={T.entityId} value={connection.sp.entity_id} />
          </>
        ) : (
          <Alert color="yellow">{T.spMissing}</Alert>
        )}
        <Text size="sm" fw={500}>
          {T.certificates}
        </Text>
        {connection.idp.certificates.map((c) => (
          <Text key={c.fingerprint_sha256} size="xs" c="dimmed">
            {c.subject} · {T.expires(formatUtc(c.not_after))} · SHA-256 {c.fingerprint_sha256}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}

/** /global/setup/authentication/{connectionId}: SP details to copy, the connection's form, Delete. */
export function ConnectionDetailPage() {
  const { profile, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const { connectionId = '' } = useParams();
  const connection = useConnection(accountId, connectionId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onSaved = useCallback(() => {
    notify.success(CONNECTION_TEXTS.updated);
    void queryClient.invalidateQueries({ queryKey: ssoKeys.account(accountId) });
  }, [accountId, queryClient]);

  if (connection.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (connection.isError)
    return (
      <Frame title={SSO_TEXTS.connections.title}>
        <Alert color="red" role="alert">
          {SSO_TEXTS.connections.loadFailed}
        </Alert>
      </Frame>
    );
  const c = connection.data;
  const onDelete = () =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(c.name),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteConnection(accountId, c.id).then(
          async () => {
            notify.success(CONNECTION_TEXTS.deleted);
            await queryClient.invalidateQueries({ queryKey: ssoKeys.account(accountId) });
            void navigate(withZone(PATHS.connectionList, zoneId));
          },
          (err: unknown) => notify.apiError(err),
        ),
    });
  return (
    <Frame title={c.name}>
      <ServiceProvider connection={c} />
      <ConnectionForm
        key={connection.dataUpdatedAt}
        connection={c}
        submitLabel={SSO_TEXTS.form.save}
        onSubmit={(body) => updateConnection(accountId, c.id, body)}
        onSaved={onSaved}
      />
      <Group>
        <Button color="red" variant="light" onClick={onDelete}>
          {T.delete}
        </Button>
      </Group>
    </Frame>
  );
}
