import { FEATURE_FLAG_NAMES, type FeatureFlag } from '@patchwell/core/shell/flags';
import { PLAN_LABELS, PLANS, type Plan } from '@patchwell/core/rules/tiers';
import { TEXTS } from '@patchwell/core/texts';
import {
  Alert,
  Badge,
  Card,
  Group,
  Loader,
  NativeSelect,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { errorText } from '../../../api/error-text';
import { CONSOLE_TEXTS } from '../../../texts';
import { notify } from '../../../ui/notify';
import { useAccountZone } from '../../zones/zones.api';
import { useFeatureFlags, useSaveFeatureFlags, useSaveZonePlan, type FlagScope } from '../flags.api';

const T = CONSOLE_TEXTS.featureFlags;
type Choice = 'inherit' | 'on' | 'off';

function ZonePlanSelect({ accountId, zoneId }: { accountId: number; zoneId: number }) {
  const zone = useAccountZone(accountId, zoneId);
  const save = useSaveZonePlan(accountId, zoneId);
  if (!zone.data) return null;
  return (
    <NativeSelect
      label={T.plan}
      description={T.planHint}
      w={280}
      data={PLANS.map((p) => ({ value: p, label: PLAN_LABELS[p] }))}
      value={zone.data.plan?.toLowerCase() ?? 'tier3'}
      disabled={save.isPending}
      onChange={(event) => {
        const value = event.currentTarget.value;
        save.mutate(
          { plan: value as Plan },
          {
            onSuccess: () => notify.success(T.planSaved(PLAN_LABELS[value as Plan])),
            onError: (error) => notify.error(errorText(error)),
          },
        );
      }}
    />
  );
}

/**
 * Global setup › Settings: feature flags of the account or of one zone. Each flag follows the
 * level above ("Default") or is switched on or off here; changes save at once.
 */
export function FeatureFlagsPanel({ accountId, zones }: { accountId: number; zones: { id: number; name: string }[] }) {
  const [zoneId, setZoneId] = useState<number | null>(null);
  const scope: FlagScope = { accountId, zoneId };
  const flags = useFeatureFlags(scope);
  const save = useSaveFeatureFlags(scope);
  const own = flags.data ? (zoneId === null ? flags.data.account : (flags.data.zone ?? {})) : {};

  const onChange = (flag: FeatureFlag, choice: Choice) => {
    const value = choice === 'inherit' ? null : choice === 'on';
    save.mutate({ [flag]: value }, { onError: (error) => notify.error(errorText(error)) });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-label={T.title}>
      <Stack gap="sm">
        <Title order={3} fz="h4">
          {T.title}
        </Title>
        <Text size="sm">{T.intro}</Text>
        <Group align="flex-end">
          <NativeSelect
            label={T.scope}
            w={280}
            data={[
              { value: 'account', label: T.wholeAccount },
              ...zones.map((z) => ({ value: String(z.id), label: z.name })),
            ]}
            value={zoneId === null ? 'account' : String(zoneId)}
            onChange={(event) => {
              const v = event.currentTarget.value;
              setZoneId(v === 'account' ? null : Number(v));
            }}
          />
          {zoneId !== null && <ZonePlanSelect key={zoneId} accountId={accountId} zoneId={zoneId} />}
        </Group>
        {flags.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
        {flags.isError && (
          <Alert color="red" role="alert">
            {TEXTS.generic.pageLoadFailed}
          </Alert>
        )}
        {flags.data && (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{T.flag}</Table.Th>
                <Table.Th>{T.setting}</Table.Th>
                <Table.Th>{T.effective}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {FEATURE_FLAG_NAMES.map((flag) => {
                const mine = own[flag];
                const choice: Choice = mine === undefined ? 'inherit' : mine ? 'on' : 'off';
                const isOn = flags.data.effective[flag];
                return (
                  <Table.Tr key={flag}>
                    <Table.Td>
                      <Text ff="monospace" size="sm" id={`flag-${flag}`}>
                        {flag}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <SegmentedControl
                        size="xs"
                        aria-labelledby={`flag-${flag}`}
                        value={choice}
                        disabled={save.isPending}
                        onChange={(v) => onChange(flag, v as Choice)}
                        data={[
                          { value: 'inherit', label: zoneId === null ? T.inheritDefault : T.inheritAccount },
                          { value: 'on', label: T.on },
                          { value: 'off', label: T.off },
                        ]}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={isOn ? 'green' : 'gray'}
                        variant="light"
                        aria-label={`${flag}: ${isOn ? T.on : T.off}`}
                      >
                        {isOn ? T.on : T.off}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
