import { DOMAIN_TEXTS, ZDomainName, type AccountDomain } from '@patchwell/core/sso/domains.schema';
import { Badge, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { serverFieldErrors } from '../../api/field-errors';
import { useShell } from '../../app/shell-context';
import { confirmAction } from '../../ui/confirm';
import { CopyValueButton } from '../../ui/CopyValueButton';
import { formatUtc } from '../../ui/format-date';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { addDomain, deleteDomain, ssoKeys, useDomains, verifyDomain } from './sso.api';
import { SSO_TEXTS } from './sso.texts';

const T = SSO_TEXTS.domains;

function StatusBadge({ status }: { status: AccountDomain['status'] }) {
  return (
    <Badge color={status === 'verified' ? 'green' : 'yellow'} variant="light">
      {status === 'verified' ? T.verified : T.pending}
    </Badge>
  );
}

/** /global/setup/domains: the account's e-mail domains, the TXT record each needs, Verify and Delete. */
export function DomainsPage() {
  usePageTitle(T.title);
  const { profile } = useShell();
  const accountId = profile.account_id ?? 0;
  const queryClient = useQueryClient();
  const domains = useDomains(accountId);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isAdding, setAdding] = useState(false);
  const [checking, setChecking] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ssoKeys.account(accountId) });

  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZDomainName.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? DOMAIN_TEXTS.pendingHelp);
    setError(null);
    setAdding(true);
    try {
      await addDomain(accountId, parsed.data);
      notify.success(DOMAIN_TEXTS.created);
      setName('');
      await refresh();
    } catch (err) {
      const fields = serverFieldErrors(err);
      if (fields.name) setError(fields.name);
      else void notify.apiError(err);
    } finally {
      setAdding(false);
    }
  };

  const onVerify = async (domain: AccountDomain) => {
    setChecking(domain.id);
    try {
      const result = await verifyDomain(accountId, domain.id);
      if (result.verified) notify.success(result.message);
      else notify.warning(result.message);
      await refresh();
    } catch (err) {
      void notify.apiError(err);
    } finally {
      setChecking(null);
    }
  };

  const onDelete = (domain: AccountDomain) =>
    confirmAction({
      title: T.deleteTitle,
      message: T.deleteBody(domain.name),
      confirmLabel: T.delete,
      isDanger: true,
      onConfirm: () =>
        void deleteDomain(accountId, domain.id).then(
          async () => {
            notify.success(DOMAIN_TEXTS.deleted);
            await refresh();
          },
          (err: unknown) => notify.apiError(err),
        ),
    });

  return (
    <Stack gap="md">
      <Title order={2} fz="h3">
        {T.title}
      </Title>
      <Text size="sm">{T.intro}</Text>
      <form onSubmit={(e) => void onAdd(e)} noValidate aria-label={T.add}>
        <Group align="flex-start">
          <TextInput
            label={T.name}
            placeholder="example.com"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            w={320}
          />
          <Button type="submit" mt={25} loading={isAdding} leftSection={<IconPlus size={16} aria-hidden="true" />}>
            {T.add}
          </Button>
        </Group>
      </form>
      <Text size="sm" c="dimmed">
        {DOMAIN_TEXTS.pendingHelp}
      </Text>
      <QueryTable
        label={T.title}
        query={{ ...domains, data: domains.data?.data }}
        columns={[
          { key: 'name', header: T.name },
          { key: 'status', header: T.status },
          { key: 'record', header: T.record },
          { key: 'connection', header: T.connection },
          { key: 'actions', header: T.actions },
        ]}
        rowKey={(d) => d.id}
        empty={T.empty}
        minWidth={900}
        renderCells={(d) => (
          <>
            <Table.Td>{d.name}</Table.Td>
            <Table.Td>
              <Stack gap={2}>
                <StatusBadge status={d.status} />
                {d.last_checked_at && d.status === 'pending' && (
                  <Text size="xs" c="dimmed">
                    {T.lastChecked(formatUtc(d.last_checked_at))}
                  </Text>
                )}
              </Stack>
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Code>{d.verification_record.value}</Code>
                <CopyValueButton value={d.verification_record.value} label={T.copyRecord(d.name)} />
              </Group>
            </Table.Td>
            <Table.Td>{d.connection?.name ?? '—'}</Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                {d.status === 'pending' && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    loading={checking === d.id}
                    onClick={() => void onVerify(d)}
                    aria-label={`${T.verify} ${d.name}`}
                  >
                    {T.verify}
                  </Button>
                )}
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => onDelete(d)}
                  aria-label={`${T.delete} ${d.name}`}
                >
                  {T.delete}
                </Button>
              </Group>
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
