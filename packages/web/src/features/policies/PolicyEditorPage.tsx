import { POLICY_TYPE_LABELS, type CreatePolicyBody } from '@patchwell/core/policies/policies.schema';
import { POLICY_TYPE_FEATURE } from '@patchwell/core/rules/entitlements';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Badge, Button, Group, Loader, Stack, Tabs, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { canFor } from '../../app/access';
import { useShell } from '../../app/shell-context';
import { CONSOLE_TEXTS } from '../../texts';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { FeatureGate } from '../plans/components/FeatureGate';
import { PolicyForm } from './components/PolicyForm';
import { PolicyRuns } from './components/PolicyRuns';
import { BackToPolicies } from './CreatePolicyPage';
import { policyKeys, updatePolicy, usePolicy } from './policies.api';
import { POLICY_TEXTS as T } from './policies.texts';
import { POLICY_RESOURCE } from './policies.types';
import { policyToForm } from './policy-form';
import { usePolicyActions } from './usePolicyActions';

/**
 * /manage/policies/{policyId}: the policy form (read-only without modify on its type), Run
 * now with its execution banner, clone and delete, and the runs with per-device results.
 */
export function PolicyEditorPage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const queryClient = useQueryClient();
  const policyId = Number(useParams().policyId);
  const isValidId = Number.isInteger(policyId) && policyId > 0;
  const policy = usePolicy(zoneId, policyId, isValidId);
  const groups = useGroups(zoneId);
  const actions = usePolicyActions(zoneId, can);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'runs' ? 'runs' : 'configuration';
  usePageTitle(policy.data?.name ?? T.title);

  if (isValidId && policy.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const p = policy.data;
  if (!p) {
    return (
      <Stack gap="md">
        <BackToPolicies zoneId={zoneId} />
        <Alert color="red" role="alert">
          {T.notFound}
        </Alert>
      </Stack>
    );
  }
  const resource = POLICY_RESOURCE[p.policy_type_name];
  if (!can(resource, 'read')) return <Alert color="gray">{TEXTS.generic.noPermission}</Alert>;
  const canEdit = can(resource, 'modify');

  const onSave = async (body: CreatePolicyBody) => {
    const saved = await updatePolicy(zoneId, p.id, body);
    notify.success(T.saved(saved.name));
    queryClient.setQueryData(policyKeys.detail(zoneId, p.id), saved);
    await queryClient.invalidateQueries({ queryKey: policyKeys.all });
  };

  const page = (
    <Stack gap="md">
      <BackToPolicies zoneId={zoneId} />
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            {p.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light">{POLICY_TYPE_LABELS[p.policy_type_name]}</Badge>
            <Badge color={p.status === 'active' ? 'green' : 'gray'} variant="light">
              {p.status === 'active' ? T.active : T.inactive}
            </Badge>
            {p.needs_configuration && (
              <Badge color="yellow" variant="light">
                {T.needsConfiguration}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          {actions.canRun(p) && <Button onClick={() => actions.runNow(p)}>{T.runNow}</Button>}
          {actions.canClone(p) && (
            <Button variant="default" onClick={() => actions.clone(p)}>
              {T.clone}
            </Button>
          )}
          {actions.canDelete(p) && (
            <Button color="red" variant="light" onClick={() => actions.remove(p, { thenGoToList: true })}>
              {T.delete}
            </Button>
          )}
        </Group>
      </Group>
      {actions.banner}
      {p.needs_configuration && <Alert color="yellow">{T.cloneNotice}</Alert>}
      {!canEdit && <Alert color="gray">{T.readOnly}</Alert>}
      <Tabs
        value={tab}
        onChange={(v) =>
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              if (v === 'runs') next.set('tab', 'runs');
              else next.delete('tab');
              return next;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <Tabs.List aria-label={T.tabsLabel}>
          <Tabs.Tab value="configuration">{T.configurationTab}</Tabs.Tab>
          <Tabs.Tab value="runs">{T.runsTab}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="configuration" pt="md">
          <PolicyForm
            key={`${p.id}-${p.needs_configuration}`}
            zoneId={zoneId}
            groups={groups.data ?? []}
            defaultValues={policyToForm(p)}
            baseConfiguration={p.configuration as Record<string, unknown>}
            canEdit={canEdit}
            submitLabel={T.save}
            onSave={onSave}
            ariaLabel={POLICY_TYPE_LABELS[p.policy_type_name]}
          />
        </Tabs.Panel>
        <Tabs.Panel value="runs" pt="md">
          <PolicyRuns zoneId={zoneId} policyId={p.id} />
        </Tabs.Panel>
      </Tabs>
      {actions.dialogs}
    </Stack>
  );
  // A worklet or required-software policy outside the zone's plan stays readable, with the
  // upsell above it; the server refuses its save (the same rule as its creation page).
  const type = p.policy_type_name;
  if (type !== 'custom' && type !== 'required_software') return page;
  return (
    <FeatureGate feature={POLICY_TYPE_FEATURE[type]} variant="notice">
      {page}
    </FeatureGate>
  );
}
