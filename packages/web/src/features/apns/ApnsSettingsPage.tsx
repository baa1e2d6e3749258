import { APNS_TEXTS, type ApnsCertificate, type ApnsCsr } from '@patchwell/core/apns/apns.schema';
import { TEXTS } from '@patchwell/core/texts';
import {
  Alert,
  Badge,
  Button,
  Code,
  FileInput,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { failureText } from '../../api/error-text';
import { ApiError } from '../../api/errors';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { CopyValueButton } from '../../ui/CopyValueButton';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import {
  apnsCsrHref,
  apnsKeys,
  createApnsCsr,
  deleteApnsSettings,
  isPkcs12Name,
  uploadApnsCertificate,
  uploadBodyOf,
  useApnsSettings,
} from './apns.api';
import { APNS_PAGE_TEXTS as T } from './apns.texts';

/**
 * /settings/apns (Organization.manage and the view-configurations feature): the zone's
 * APNS push certificate — what it is and when it expires (a warning from 30 days before),
 * the signing request to have Apple sign, and the upload of the certificate Apple issued.
 */
export function ApnsSettingsPage() {
  usePageTitle(T.title);
  const { zoneId = 0 } = useShell();
  const queryClient = useQueryClient();
  const settings = useApnsSettings(zoneId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apnsKeys.all });
  const certificate = settings.data?.certificate ?? null;

  const onRemove = () =>
    confirmAction({
      title: T.removeTitle,
      message: T.removeBody,
      confirmLabel: T.remove,
      isDanger: true,
      onConfirm: () =>
        void deleteApnsSettings(zoneId).then(
          async () => {
            notify.success(T.removed);
            await refresh();
          },
          (error: unknown) => notify.apiError(error),
        ),
    });

  return (
    <Stack gap="lg" maw={880}>
      <Title order={2} fz="h3">
        {T.title}
      </Title>
      <Text size="sm">{T.intro}</Text>
      {settings.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {settings.isError && <Alert color="red">{TEXTS.generic.unableToLoad}</Alert>}
      {settings.data && (
        <>
          {certificate && <ExpiryAlert certificate={certificate} />}
          <Stack gap="xs">
            <Group justify="space-between">
              <Title order={3} fz="h4">
                {T.current}
              </Title>
              {certificate && (
                <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
                  {T.remove}
                </Button>
              )}
            </Group>
            {certificate ? <CertificateTable certificate={certificate} /> : <Text c="dimmed">{T.none}</Text>}
          </Stack>
          <RequestSection zoneId={zoneId} csr={settings.data.csr} certificate={certificate} onChange={refresh} />
          <UploadSection zoneId={zoneId} onChange={refresh} />
        </>
      )}
    </Stack>
  );
}

function ExpiryAlert({ certificate }: { certificate: ApnsCertificate }) {
  const date = formatUtc(certificate.valid_to);
  if (certificate.expired) {
    return (
      <Alert color="red" title={T.expiredTitle} icon={<IconAlertTriangle aria-hidden="true" />}>
        {T.expiredBody(date)}
      </Alert>
    );
  }
  if (!certificate.expiring_soon) return null;
  return (
    <Alert
      color="yellow"
      title={T.expiringTitle(certificate.days_left)}
      icon={<IconAlertTriangle aria-hidden="true" />}
    >
      {T.expiringBody(date)}
    </Alert>
  );
}

function CertificateTable({ certificate: c }: { certificate: ApnsCertificate }) {
  const rows: [string, ReactNode][] = [
    [T.subject, c.subject],
    [T.topic, <Code key="topic">{c.topic}</Code>],
    [T.serial, <Code key="serial">{c.serial}</Code>],
    [T.issuer, c.issuer],
    [T.validFrom, formatUtc(c.valid_from)],
    [
      T.validTo,
      <Group key="to" gap="xs">
        <span>{formatUtc(c.valid_to)}</span>
        {!c.expired && (
          <Badge color={c.expiring_soon ? 'yellow' : 'gray'} variant="light">
            {T.daysLeft(c.days_left)}
          </Badge>
        )}
      </Group>,
    ],
    [
      T.fingerprint,
      <Code key="fp" style={{ wordBreak: 'break-all' }}>
        {c.fingerprint_sha256}
      </Code>,
    ],
    [T.uploaded, T.uploadedBy(formatUtc(c.uploaded_at), c.uploaded_by)],
    [T.privateKey, c.has_private_key ? T.keyStored : T.keyMissing],
  ];
  return (
    <Table withTableBorder variant="vertical" layout="fixed" aria-label={T.current}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w={200}>
              {label}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

type RequestProps = {
  zoneId: number;
  csr: ApnsCsr | null;
  certificate: ApnsCertificate | null;
  onChange: () => Promise<void>;
};

function RequestSection({ zoneId, csr, certificate, onChange }: RequestProps) {
  const [busy, setBusy] = useState(false);
  const renewal = Boolean(certificate?.has_private_key);
  const generate = async (newKey: boolean) => {
    setBusy(true);
    try {
      await createApnsCsr(zoneId, newKey);
      notify.success(T.generated);
      await onChange();
    } catch (error) {
      notify.apiError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Title order={3} fz="h4">
        {T.step1}
      </Title>
      <Text size="sm">{T.step1Body}</Text>
      {renewal && <Text size="sm">{T.step1Renew}</Text>}
      <Group>
        <Button loading={busy} onClick={() => void generate(false)}>
          {renewal ? T.generateRenewal : T.generate}
        </Button>
        {renewal && (
          <Button variant="default" disabled={busy} onClick={() => void generate(true)}>
            {T.generateNewKey}
          </Button>
        )}
      </Group>
      {csr && (
        <Paper withBorder p="sm" role="group" aria-label={T.pending}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Stack gap={0}>
                <Text fw={600} size="sm">
                  {T.pending}
                </Text>
                <Text size="xs" c="dimmed">
                  {T.pendingMeta(formatUtc(csr.created_at), csr.created_by)} · {csr.subject}
                </Text>
              </Stack>
              <Group gap="xs">
                <CopyValueButton value={csr.pem} label={T.copy} />
                <Button
                  component="a"
                  href={apnsCsrHref(zoneId)}
                  download
                  variant="light"
                  leftSection={<IconDownload size={16} aria-hidden="true" />}
                >
                  {T.download}
                </Button>
              </Group>
            </Group>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 160, overflow: 'auto' }}>
              {csr.pem}
            </Code>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}

function UploadSection({ zoneId, onChange }: { zoneId: number; onChange: () => Promise<void> }) {
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ file?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const pkcs12 = file !== null && isPkcs12Name(file.name);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setErrors({ file: APNS_TEXTS.fileRequired });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const body = await uploadBodyOf(file, password);
      if ('problem' in body) {
        setErrors({ file: body.problem });
        return;
      }
      await uploadApnsCertificate(zoneId, body);
      notify.success(T.uploaded_);
      setFile(null);
      setPassword('');
      await onChange();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={T.step2}>
      <Stack gap="xs">
        <Title order={3} fz="h4">
          {T.step2}
        </Title>
        <Text size="sm">{T.step2Body}</Text>
        <FileInput
          label={T.file}
          placeholder={T.filePlaceholder}
          accept=".pem,.cer,.crt,.der,.p12,.pfx"
          value={file}
          onChange={(f) => {
            setFile(f);
            setErrors({});
          }}
          error={errors.file ?? (pkcs12 ? undefined : errors.password)}
          clearable
          maw={480}
        />
        {pkcs12 && (
          <PasswordInput
            label={T.password}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            maw={480}
          />
        )}
        <Group>
          <Button type="submit" loading={busy} leftSection={<IconUpload size={16} aria-hidden="true" />}>
            {T.upload}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The server's 400 `errors` ({data: […]} or {password: […]}) as the fields' messages. */
function fieldErrorsOf(error: unknown): { file?: string; password?: string } {
  if (error instanceof ApiError && error.body?.errors && typeof error.body.errors === 'object') {
    const errs = error.body.errors as Record<string, string[] | undefined>;
    const first = (k: string) => errs[k]?.[0];
    const out = { file: first('data') ?? first('format'), password: first('password') };
    if (out.file || out.password) return out;
  }
  return { file: failureText(error) };
}
