import { CVE_EXCEPTION_KIND_LABELS, type CveException } from '@patchwell/core/remediation/cves.schema';
import { Badge, Button, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { confirmAction } from '../../../ui/confirm';
import { formatUtc } from '../../../ui/format-date';
import { notify } from '../../../ui/notify';
import { cveKeys, revokeCveException } from '../remediations.api';
import { REMEDIATION_TEXTS as T } from '../remediations.texts';

const STATE_COLORS: Record<CveException['state'], string> = { active: 'blue', revoked: 'gray', expired: 'gray' };

/** A CVE's exceptions (false positives and accepted risks): who decided, why, until when, and revoke. */
export function ExceptionsTable({
  zoneId,
  exceptions,
  canEdit,
}: {
  zoneId: number;
  exceptions: readonly CveException[];
  canEdit: boolean;
}) {
  const queryClient = useQueryClient();
  if (exceptions.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {T.exceptionsEmpty}
      </Text>
    );
  }
  const revoke = (e: CveException) =>
    confirmAction({
      title: T.revokeTitle,
      message: T.revokeBody,
      confirmLabel: T.revoke,
      isDanger: true,
      onConfirm: () =>
        void revokeCveException(zoneId, e.id).then(
          () => {
            notify.success(T.revokedDone);
            return queryClient.invalidateQueries({ queryKey: cveKeys.all });
          },
          (error: unknown) => notify.apiError(error),
        ),
    });
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table withTableBorder aria-label={T.exceptionsLabel}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{T.scope}</Table.Th>
            <Table.Th scope="col">{T.kind}</Table.Th>
            <Table.Th scope="col">{T.reason}</Table.Th>
            <Table.Th scope="col">{T.expires}</Table.Th>
            <Table.Th scope="col">{T.decidedBy}</Table.Th>
            <Table.Th scope="col">{T.status}</Table.Th>
            <Table.Th scope="col">{T.revoke}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {exceptions.map((e) => {
            const { state } = e;
            const who = e.hostname ?? T.wholeZone;
            return (
              <Table.Tr key={e.id}>
                <Table.Td>{who}</Table.Td>
                <Table.Td>{CVE_EXCEPTION_KIND_LABELS[e.kind] ?? e.kind}</Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                    {e.reason}
                  </Text>
                </Table.Td>
                <Table.Td>{e.expires_at ? formatUtc(e.expires_at) : T.never}</Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {e.created_by_user.email ?? '—'}, {formatUtc(e.created_at)}
                  </Text>
                  {e.revoked_at && (
                    <Text size="xs" c="dimmed">
                      {T.revokedBy(e.revoked_by_user?.email ?? '—', formatUtc(e.revoked_at))}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATE_COLORS[state]} variant="light">
                    {T.states[state] ?? state}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {canEdit && state === 'active' ? (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={() => revoke(e)}
                      aria-label={T.revokeFor(who)}
                    >
                      {T.revoke}
                    </Button>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
