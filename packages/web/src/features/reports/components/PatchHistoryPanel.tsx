import { Anchor, Badge, Button, Group, Stack, Table, Title } from '@mantine/core';
import { Link } from 'react-router';
import { pathTo, PATHS } from '../../../app/paths';
import { withZone } from '../../../app/zone';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { usePatchHistory } from '../reports.api';
import { REPORTS_TEXTS } from '../reports.texts';

const T = REPORTS_TEXTS.overview;

const COLUMNS = [
  { key: 'device', header: REPORTS_TEXTS.device },
  { key: 'command', header: T.command },
  { key: 'patches', header: T.patches },
  { key: 'status', header: T.status },
  { key: 'finished', header: T.finished },
  { key: 'policy', header: T.policy },
] as const;

/** The install commands behind one day's "patches installed" or "failures" figure. */
export function PatchHistoryPanel({
  zoneId,
  day,
  outcome,
  closeTo,
}: {
  zoneId: number;
  day: string;
  outcome: 'installed' | 'failed';
  closeTo: string;
}) {
  const paging = usePaging();
  const history = usePatchHistory(zoneId, { startDate: day, endDate: day, outcome, ...paging.apiQuery }, true);
  const title = T.historyTitle(outcome === 'installed' ? T.installed : T.failures, day);
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Group justify="space-between">
        <Title order={3} fz="h4">
          {title}
        </Title>
        <Button component={Link} to={closeTo} variant="subtle" size="xs">
          {T.closeHistory}
        </Button>
      </Group>
      <PagedQueryTable
        label={T.historyTable}
        query={history}
        paging={paging}
        columns={COLUMNS}
        rowKey={(e) => e.command_id}
        empty={T.noHistory}
        renderCells={(e) => (
          <>
            <Table.Td>
              <Anchor
                component={Link}
                to={withZone(pathTo(PATHS.deviceDetail, { deviceId: e.device_id }), zoneId)}
                size="sm"
              >
                {e.device_name}
              </Anchor>
            </Table.Td>
            <Table.Td>{CONSOLE_TEXTS.commandType[e.type] ?? e.type}</Table.Td>
            <Table.Td>{e.patches.join(', ') || '—'}</Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <Badge
                  variant="light"
                  color={e.status === 'success' ? 'green' : e.status === 'canceled' ? 'gray' : 'red'}
                >
                  {CONSOLE_TEXTS.commandStatus[e.status] ?? e.status}
                </Badge>
                {e.simulated && (
                  <Badge variant="outline" color="gray">
                    {T.simulated}
                  </Badge>
                )}
              </Group>
            </Table.Td>
            <Table.Td>{formatUtc(e.finished_at)}</Table.Td>
            <Table.Td>
              {e.policy_id && e.policy_name ? (
                <Anchor
                  component={Link}
                  to={withZone(pathTo(PATHS.policyDetail, { policyId: e.policy_id }), zoneId)}
                  size="sm"
                >
                  {e.policy_name}
                </Anchor>
              ) : (
                '—'
              )}
            </Table.Td>
          </>
        )}
      />
    </Stack>
  );
}
