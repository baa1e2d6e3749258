import { POLICY_TYPE_LABELS } from '@patchwell/core/policies/policies.schema';
import { POLICY_STATUS_LABELS } from '@patchwell/core/policies/policy-compliance';
import { TEXTS } from '@patchwell/core/texts';
import { Accordion, Anchor, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { canFor } from '../../../app/access';
import { PATHS, pathTo } from '../../../app/paths';
import { useShell } from '../../../app/shell-context';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { confirmAction } from '../../../ui/confirm';
import { formatUtc } from '../../../ui/format-date';
import { notify } from '../../../ui/notify';
import { policyKeys, runPolicy, useDevicePolicies } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';
import { POLICY_RESOURCE } from '../policies.types';
import { type DevicePolicyDetail } from '@patchwell/core/policies/policy-responses.schema';
import { ResultBadge, ResultOutput } from './PolicyRuns';

const COMPLIANCE_COLOR: Record<string, string> = { compliant: 'green', pending: 'gray', needs_attention: 'red' };

export type DevicePoliciesProps = { zoneId: number; deviceId: number };

/**
 * A device's policies (`GET /api/servers/{id}/policies`): its status with each (the family's
 * words) and why, beside it (the row is a button, so no tooltip trigger inside it), the next
 * run, and the last result with its output. For the device details page.
 */
export function DevicePolicies({ zoneId, deviceId }: DevicePoliciesProps) {
  const { profile } = useShell();
  const can = canFor(profile, zoneId);
  const queryClient = useQueryClient();
  const policies = useDevicePolicies(zoneId, deviceId);
  // Run the policy on this device only (`remediateServer`); its result shows here when it arrives.
  const onRun = (p: DevicePolicyDetail) =>
    confirmAction({
      title: T.runNowTitle,
      message: T.runOnDeviceBody(p.policy_name),
      confirmLabel: T.runNow,
      onConfirm: () =>
        void runPolicy(zoneId, p.policy_id, { action: 'remediateServer', serverId: deviceId }).then(
          async () => {
            notify.success(T.runStarted(p.policy_name));
            await queryClient.invalidateQueries({ queryKey: policyKeys.device(zoneId, deviceId) });
          },
          (error: unknown) => notify.apiError(error),
        ),
    });
  if (policies.isPending) return <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />;
  if (policies.isError) return <Text size="sm">{TEXTS.generic.unableToLoad}</Text>;
  const rows = policies.data.data;
  if (rows.length === 0) return <Text size="sm">{T.devicePoliciesEmpty}</Text>;
  return (
    <Accordion multiple variant="separated" aria-label={T.devicePolicies}>
      {rows.map((p) => (
        <Accordion.Item key={p.policy_id} value={String(p.policy_id)}>
          <Accordion.Control>
            <Group justify="space-between" wrap="nowrap" pr="sm">
              <Stack gap={0}>
                <Text fw={500}>{p.policy_name}</Text>
                <Text size="xs" c="dimmed">
                  {POLICY_TYPE_LABELS[p.policy_type_name]}
                </Text>
                <Text size="xs">{p.reason}</Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Badge color={COMPLIANCE_COLOR[p.compliance] ?? 'gray'} variant="light">
                  {POLICY_STATUS_LABELS[p.compliance] ?? p.compliance}
                </Badge>
                {p.result ? (
                  <ResultBadge status={p.result.status} isSimulated={p.result.simulated} />
                ) : (
                  <Badge color="gray" variant="outline">
                    {T.noResultYet}
                  </Badge>
                )}
              </Group>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Stack gap="xs">
              <Text size="sm">
                {T.lastRun}: {formatUtc(p.last_run_at)} · {T.nextRun}:{' '}
                {p.next_run_time ? formatUtc(p.next_run_time) : T.unscheduled}
              </Text>
              {p.evaluation_exit_code !== null && <Text size="sm">{T.evaluationExit(p.evaluation_exit_code)}</Text>}
              {p.result && (
                <>
                  <Text size="sm">
                    {T.lastResult}: {T.exitCode} {p.result.exit_code ?? '—'} · {T.finished}{' '}
                    {formatUtc(p.result.finished_at)}
                  </Text>
                  <ResultOutput result={p.result} />
                </>
              )}
              <Group gap="sm">
                <Anchor
                  component={Link}
                  size="sm"
                  to={withZone(pathTo(PATHS.policyDetail, { policyId: p.policy_id }), zoneId)}
                >
                  {p.policy_name}
                </Anchor>
                {can(POLICY_RESOURCE[p.policy_type_name], 'execute') && (
                  <Button size="xs" variant="light" onClick={() => onRun(p)}>
                    {T.runOnDevice}
                  </Button>
                )}
              </Group>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
