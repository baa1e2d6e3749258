import {
  POLICY_TYPE_LABELS,
  POLICY_TYPES,
  type CreatePolicyBody,
  type PolicyType,
} from '@patchwell/core/policies/policies.schema';
import type { WorkletCatalogEntry } from '@patchwell/core/worklets/worklet-catalog.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBook2, IconPackage, IconScript, IconShieldCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { NavCard } from '../../ui/NavCard';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { useGroups } from '../groups/groups.api';
import { useWorklet } from '../worklets/worklets.api';
import { PolicyForm } from './components/PolicyForm';
import { reviewNewPolicy } from './components/PolicyReview';
import { createPolicy, policyKeys } from './policies.api';
import { POLICY_TEXTS as T } from './policies.texts';
import { POLICY_RESOURCE } from './policies.types';
import { emptyPolicyForm, type PolicyFormValues } from './policy-form';

const TYPE_ICONS = { patch: IconShieldCheck, custom: IconScript, required_software: IconPackage };

export function BackToPolicies({ zoneId }: { zoneId: number }) {
  return (
    <Anchor component={Link} to={withZone(PATHS.policiesHome, zoneId)} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden="true" />
        {T.back}
      </Group>
    </Anchor>
  );
}

/** A new worklet policy's values from a catalogue entry. */
export function formFromWorklet(worklet: WorkletCatalogEntry): PolicyFormValues {
  const values = emptyPolicyForm('custom');
  return {
    ...values,
    name: worklet.name,
    notes: worklet.description,
    configuration: {
      ...values.configuration,
      os_family: worklet.os_family,
      language: worklet.language,
      evaluation_code: worklet.evaluation_code,
      remediation_code: worklet.remediation_code,
    },
  };
}

function NewPolicyForm({ zoneId, type, worklet }: { zoneId: number; type: PolicyType; worklet: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const groups = useGroups(zoneId);
  const entry = useWorklet(zoneId, type === 'custom' ? worklet : null);
  if (worklet && type === 'custom' && entry.isPending)
    return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  const defaults = entry.data ? formFromWorklet(entry.data) : emptyPolicyForm(type);
  const onSave = async (body: CreatePolicyBody) => {
    // A policy made from a catalogue entry remembers it.
    const created = await createPolicy(
      zoneId,
      entry.data ? { ...body, community_worklet_id: entry.data.legacy_id } : body,
    );
    notify.success(T.created(created.name));
    await queryClient.invalidateQueries({ queryKey: policyKeys.all });
    await navigate(withZone(pathTo(PATHS.policyDetail, { policyId: created.id }), zoneId));
  };
  return (
    <Stack gap="md">
      {entry.data && <Text size="sm">{T.fromWorklet(entry.data.name)}</Text>}
      {entry.isError && <Alert color="red">{TEXTS.generic.unableToLoad}</Alert>}
      <PolicyForm
        key={entry.data?.id ?? type}
        zoneId={zoneId}
        groups={groups.data ?? []}
        defaultValues={defaults}
        canEdit
        submitLabel={T.save}
        onSave={onSave}
        ariaLabel={POLICY_TYPE_LABELS[type]}
        review={(body) => reviewNewPolicy(body, groups.data ?? [])}
        worklet={entry.data}
      />
    </Stack>
  );
}

/**
 * /manage/policies/create: choose a type (patch, worklet, required software, or a worklet
 * from the catalogue), then the form; `?type=custom&worklet=<id>` prefills a catalogue worklet.
 */
export function CreatePolicyPage() {
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const [params] = useSearchParams();
  const requested = params.get('type');
  const type = POLICY_TYPES.find((t) => t === requested) ?? null;
  usePageTitle(type ? POLICY_TYPE_LABELS[type] : T.createTitle);
  const creatable = POLICY_TYPES.filter((t) => can(POLICY_RESOURCE[t], 'create'));

  return (
    <Stack gap="md">
      <BackToPolicies zoneId={zoneId} />
      <Title order={1} fz="h2">
        {type ? POLICY_TYPE_LABELS[type] : T.createTitle}
      </Title>
      {creatable.length === 0 || (type && !creatable.includes(type)) ? (
        <Alert color="gray">{TEXTS.generic.noPermission}</Alert>
      ) : type ? (
        <NewPolicyForm zoneId={zoneId} type={type} worklet={params.get('worklet')} />
      ) : (
        <>
          <Text c="dimmed">{T.chooseType}</Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            {creatable.map((t) => {
              const Icon = TYPE_ICONS[t];
              return (
                <NavCard
                  key={t}
                  icon={<Icon size={22} />}
                  label={POLICY_TYPE_LABELS[t]}
                  description={T.typeDescriptions[t]}
                  to={withZone(PATHS.policyCreate, zoneId, { type: t })}
                  buttonLabel={T.choose}
                />
              );
            })}
            {creatable.includes('custom') && (
              <NavCard
                icon={<IconBook2 size={22} />}
                label={T.fromCatalog}
                description={T.fromCatalogDescription}
                to={withZone(PATHS.workletCatalog, zoneId)}
                buttonLabel={T.browseCatalog}
              />
            )}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
