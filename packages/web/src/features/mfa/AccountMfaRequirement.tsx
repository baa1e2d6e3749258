import { ZAccountMfa } from '@patchwell/core/auth/mfa.schema';
import { Card, Loader, Stack, Switch, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { errorText } from '../../api/error-text';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';

const T = CONSOLE_TEXTS.mfa;
const key = (accountId: number) => ['mfa', 'account', accountId] as const;

/** Global settings: require MFA of every user of the account (global administrators). */
export function AccountMfaRequirement({ accountId }: { accountId: number }) {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: key(accountId),
    queryFn: ({ signal }) => api.request(`/api/accounts/${accountId}/require-mfa`, { schema: ZAccountMfa, signal }),
    meta: { onError: 'none' },
  });
  const save = useMutation({
    mutationFn: (enabled: boolean) =>
      api.request(`/api/accounts/${accountId}/require-mfa`, { method: 'PUT', body: { enabled }, schema: ZAccountMfa }),
    onSuccess: (data) => queryClient.setQueryData(key(accountId), data),
    meta: { onError: 'none' },
  });
  const onChange = async (enabled: boolean) => {
    try {
      await save.mutateAsync(enabled);
      notify.success(T.requirementSaved);
    } catch (error) {
      notify.error(errorText(error));
    }
  };
  return (
    <Card withBorder padding="lg" component="section" aria-label={T.requirementsTitle}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {T.requirementsTitle}
        </Title>
        {current.data ? (
          <Switch
            label={T.accountRequireMfa}
            checked={current.data.require_mfa}
            disabled={save.isPending}
            onChange={(e) => void onChange(e.currentTarget.checked)}
          />
        ) : (
          <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />
        )}
      </Stack>
    </Card>
  );
}
