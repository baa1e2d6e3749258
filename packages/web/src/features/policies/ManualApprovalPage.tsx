import type { Approval } from '@patchwell/core/policies/policy-runs.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Alert, Anchor, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { canFor } from '../../app/access';
import { PATHS, pathTo } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { CveList } from '../../ui/CveList';
import { notify } from '../../ui/notify';
import { usePageTitle } from '../../ui/usePageTitle';
import { decideApproval, policyKeys, useManualApprovals } from './policies.api';
import { POLICY_TEXTS as T } from './policies.texts';

/**
 * /policy-manual-approval: for each manual-approval policy, the patches waiting for a
 * decision; approve or reject each (Approval.create). Approved patches install at the next run.
 */
export function ManualApprovalPage() {
  usePageTitle(T.approvalsTitle);
  const { profile, zoneId = 0 } = useShell();
  const can = canFor(profile, zoneId);
  const canDecide = can('Approval', 'create');
  const queryClient = useQueryClient();
  const approvals = useManualApprovals(zoneId);
  const [busyId, setBusyId] = useState<number | null>(null);
  const policies = (approvals.data?.data ?? []).filter((p) => p.pending.length > 0);

  const decide = async (a: Approval, approve: boolean) => {
    setBusyId(a.id);
    try {
      await decideApproval(zoneId, a.id, approve);
      const label = `${a.software.display_name} ${a.software.version}`;
      notify.success(approve ? T.approved(label) : T.rejected(label));
      await queryClient.invalidateQueries({ queryKey: policyKeys.approvals(zoneId) });
    } catch (error) {
      void notify.apiError(error);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Stack gap="md">
      <Title order={1} fz="h2">
        {T.approvalsTitle}
      </Title>
      <Text c="dimmed">{T.approvalsIntro}</Text>
      {approvals.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
      {approvals.isError && <Alert color="red">{TEXTS.generic.unableToLoad}</Alert>}
      {approvals.data && policies.length === 0 && <Text>{T.approvalsEmpty}</Text>}
      {policies.map((p) => (
        <Stack key={p.policy_id} gap="xs" component="section" aria-label={p.policy_name}>
          <Title order={2} fz="h4">
            <Anchor component={Link} to={withZone(pathTo(PATHS.policyDetail, { policyId: p.policy_id }), zoneId)}>
              {p.policy_name}
            </Anchor>
          </Title>
          <Table withTableBorder aria-label={p.policy_name}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{T.patch}</Table.Th>
                <Table.Th scope="col">{T.version}</Table.Th>
                <Table.Th scope="col">{T.osFamily}</Table.Th>
                <Table.Th scope="col">{T.cves}</Table.Th>
                <Table.Th scope="col">{T.waitingDevices}</Table.Th>
                {canDecide && <Table.Th scope="col">{T.actions}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {p.pending.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>{a.software.display_name}</Table.Td>
                  <Table.Td>{a.software.version}</Table.Td>
                  <Table.Td>{CONSOLE_TEXTS.os[a.software.os_family] ?? a.software.os_family}</Table.Td>
                  <Table.Td>
                    <CveList cves={a.software.cves} />
                  </Table.Td>
                  <Table.Td>{a.server_count}</Table.Td>
                  {canDecide && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          loading={busyId === a.id}
                          onClick={() => void decide(a, true)}
                          aria-label={`${T.approve} ${a.software.display_name}`}
                        >
                          {T.approve}
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          disabled={busyId === a.id}
                          onClick={() => void decide(a, false)}
                          aria-label={`${T.reject} ${a.software.display_name}`}
                        >
                          {T.reject}
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ))}
    </Stack>
  );
}
