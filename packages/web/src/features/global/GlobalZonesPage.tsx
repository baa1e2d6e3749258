import { trialState } from '@patchwell/core/rules/trial';
import { PLAN_LABELS, canCreateZoneUnder, type Plan } from '@patchwell/core/rules/tiers';
import { TEXTS } from '@patchwell/core/texts';
import type { Zone } from '@patchwell/core/zones/zones.schema';
import { Anchor, Badge, Button, Group, Stack, Table, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { useRefreshProfile } from '../../app/useRefreshProfile';
import { parentOrgOf, withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { confirmAction } from '../../ui/confirm';
import { notify } from '../../ui/notify';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { useAccountZones, useSetZoneDisabled } from '../zones/zones.api';

/** 'Complete', 'Standard', 'Basic', or the key as sent. */
export function planLabel(plan: string | null): string {
  if (!plan) return '—';
  return PLAN_LABELS[plan.toLowerCase() as Plan] ?? plan;
}

function trialLabel(zone: Zone): string {
  const state = trialState(zone);
  if (state.kind === 'none') return '—';
  return state.kind === 'expired' ? TEXTS.trial.expired : CONSOLE_TEXTS.trial.daysLeft(state.daysLeft);
}

/** /global/setup/zones: the account's zones, with enable and disable for global administrators. */
export function GlobalZonesPage() {
  usePageTitle(CONSOLE_TEXTS.globalZones.title);
  const { profile, zone, zoneId } = useShell();
  const accountId = profile.account_id ?? 0;
  const zones = useAccountZones(accountId);
  const setDisabled = useSetZoneDisabled(accountId);
  const refreshProfile = useRefreshProfile(zoneId);
  const parent = parentOrgOf(profile, zone) ?? zone;
  const canCreate = !!parent && canCreateZoneUnder(parent);

  const onToggle = (target: Zone) => {
    const disabling = !target.disabled;
    confirmAction({
      title: disabling ? CONSOLE_TEXTS.globalZones.disableTitle : CONSOLE_TEXTS.globalZones.enableTitle,
      message: disabling
        ? CONSOLE_TEXTS.globalZones.disableBody(target.name)
        : CONSOLE_TEXTS.globalZones.enableBody(target.name),
      confirmLabel: disabling ? CONSOLE_TEXTS.globalZones.disable : CONSOLE_TEXTS.globalZones.enable,
      isDanger: disabling,
      onConfirm: () =>
        setDisabled.mutate(
          { zoneId: target.id, disabled: disabling },
          {
            onSuccess: () => {
              notify.success(
                disabling
                  ? CONSOLE_TEXTS.globalZones.disabled(target.name)
                  : CONSOLE_TEXTS.globalZones.enabled(target.name),
              );
              void refreshProfile();
            },
          },
        ),
    });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="h3">
          {CONSOLE_TEXTS.globalZones.title}
        </Title>
        {canCreate && (
          <Button
            component={Link}
            to={withZone(PATHS.globalCreateZone, zoneId)}
            leftSection={<IconPlus size={16} aria-hidden="true" />}
          >
            {CONSOLE_TEXTS.globalZones.create}
          </Button>
        )}
      </Group>
      <QueryTable
        label={CONSOLE_TEXTS.globalZones.title}
        query={zones}
        errorText={TEXTS.zones.listLoadFailed}
        minWidth={640}
        columns={[
          { key: 'name', header: CONSOLE_TEXTS.globalZones.name },
          { key: 'plan', header: CONSOLE_TEXTS.globalZones.plan },
          { key: 'users', header: CONSOLE_TEXTS.globalZones.users },
          { key: 'trial', header: CONSOLE_TEXTS.globalZones.trial },
          { key: 'status', header: CONSOLE_TEXTS.globalZones.status },
          { key: 'actions', header: CONSOLE_TEXTS.common.actions },
        ]}
        rowKey={(z) => z.id}
        empty={CONSOLE_TEXTS.globalZones.empty}
        renderCells={(z) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={withZone(pathTo(PATHS.globalZoneDetail, { zoneId: z.id }), zoneId)}>
                {z.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{planLabel(z.plan)}</Table.Td>
            <Table.Td>{z.user_count}</Table.Td>
            <Table.Td>{trialLabel(z)}</Table.Td>
            <Table.Td>
              {z.disabled ? (
                <Badge color="gray" variant="light">
                  {CONSOLE_TEXTS.globalZones.statusDisabled}
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  {CONSOLE_TEXTS.globalZones.statusActive}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>
              {profile.is_global_admin && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color={z.disabled ? undefined : 'red'}
                  onClick={() => onToggle(z)}
                  aria-label={`${z.disabled ? CONSOLE_TEXTS.globalZones.enable : CONSOLE_TEXTS.globalZones.disable} ${z.name}`}
                >
                  {z.disabled ? CONSOLE_TEXTS.globalZones.enable : CONSOLE_TEXTS.globalZones.disable}
                </Button>
              )}
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
