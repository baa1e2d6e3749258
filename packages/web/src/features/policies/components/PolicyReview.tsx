import type { ServerGroup } from '@patchwell/core/devices/groups.schema';
import type { CreatePolicyBody } from '@patchwell/core/policies/policies.schema';
import { Stack, Table, Text } from '@mantine/core';
import { openConfirmModal } from '../../../ui/modals-host';
import { POLICY_TEXTS as T } from '../policies.texts';
import { policySummary } from '../policy-summary';

export function PolicySummary({ body, groups }: { body: CreatePolicyBody; groups: readonly ServerGroup[] }) {
  return (
    <Stack gap="sm">
      <Text size="sm">{T.review.intro}</Text>
      <Table variant="vertical" layout="fixed" withTableBorder aria-label={T.review.title}>
        <Table.Tbody>
          {policySummary(body, groups).map((row) => (
            <Table.Tr key={row.label}>
              <Table.Th w={120} scope="row">
                {row.label}
              </Table.Th>
              <Table.Td>{row.value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/**
 * Shows what a new policy will do before its first save; resolves true when the person
 * creates it, false when they go back to the form (or close the dialog).
 */
export function reviewNewPolicy(body: CreatePolicyBody, groups: readonly ServerGroup[]): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (decision: boolean) => {
      if (settled) return;
      settled = true;
      resolve(decision);
    };
    void openConfirmModal({
      title: T.review.title,
      size: 'md',
      children: <PolicySummary body={body} groups={groups} />,
      labels: { confirm: T.review.confirm, cancel: T.review.back },
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
