import { Alert, Anchor, Group, Loader, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { POLICY_TYPE_LABELS } from '@patchwell/core/policies/policies.schema';
import type { PolicyRunEvent } from '@patchwell/core/reports/policy-results.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { pathTo, PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { FactTable } from '../../ui/FactTable';
import { formatUtc } from '../../ui/format-date';
import { QueryTable } from '../../ui/QueryTable';
import { usePageTitle } from '../../ui/usePageTitle';
import { PolicyRuns } from '../policies/components/PolicyRuns';
import { usePolicyResult } from './reports.api';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.policyResults;
const TABS = ['run-results', 'activity-log'] as const;
type Tab = (typeof TABS)[number];

/**
 * The policy's activity of the last 30 days, from its runs' starts and finishes. The zone's
 * activity log (`GET /api/events`, another module) will add the changes people made to it.
 */
function RunEvents({ events }: { events: readonly PolicyRunEvent[] }) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {T.activityIntro}
      </Text>
      <QueryTable
        label={T.activityLog}
        query={{ data: events, isPending: false, isError: false }}
        columns={[
          { key: 'when', header: T.when },
          { key: 'event', header: T.event },
          { key: 'by', header: T.by },
          { key: 'status', header: CONSOLE_TEXTS.devices.status },
        ]}
        rowKey={(e) => `${e.run_id}:${e.kind}`}
        empty={T.noEvents}
        renderCells={(e) => (
          <>
            <Table.Td>{formatUtc(e.at)}</Table.Td>
            <Table.Td>
              {e.kind === 'started' ? T.started : T.finished} ({T.triggers[e.trigger] ?? e.trigger})
            </Table.Td>
            <Table.Td>{e.by ?? '—'}</Table.Td>
            <Table.Td>{e.status}</Table.Td>
          </>
        )}
      />
    </Stack>
  );
}

/** /reports/policy-results/:policyUuid: one policy's figures, with tabs for its run results and its activity. */
export function PolicyResultPage() {
  const { policyUuid = '' } = useParams();
  const { zoneId = 0 } = useShell();
  const [params, setParams] = useSearchParams();
  const result = usePolicyResult(zoneId, policyUuid);
  const policy = result.data?.policy;
  usePageTitle(policy ? `${T.title}: ${policy.name}` : T.title);
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'run-results';
  const onTab = (value: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (!value || value === 'run-results') next.delete('tab');
      else next.set('tab', value);
      return next;
    });

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={withZone(PATHS.reportsPolicyResults, zoneId)} size="sm">
        {T.back}
      </Anchor>
      {result.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
      {result.isError && (
        <Alert color={isApiError(result.error, 404) ? 'gray' : 'red'} role="alert">
          {isApiError(result.error, 404) ? T.notFound : TEXTS.generic.unableToLoad}
        </Alert>
      )}
      {policy && result.data && (
        <>
          <Group justify="space-between" align="flex-end">
            <Title order={2} fz="h3">
              {policy.name}
            </Title>
            <Anchor
              component={Link}
              to={withZone(pathTo(PATHS.policyDetail, { policyId: policy.policy_id }), zoneId)}
              size="sm"
            >
              {T.editPolicy}
            </Anchor>
          </Group>
          {policy.runs === 0 && (
            <Alert color="gray" role="status">
              {T.notRun}
            </Alert>
          )}
          <FactTable
            label={policy.name}
            facts={[
              { label: T.type, value: POLICY_TYPE_LABELS[policy.policy_type_name] ?? policy.policy_type_name },
              { label: T.runs, value: policy.runs },
              { label: T.lastRun, value: formatUtc(policy.last_run_at) },
              { label: T.devices, value: policy.devices },
              { label: T.success, value: policy.success },
              { label: T.failed, value: policy.failed },
              { label: T.pending, value: policy.pending },
            ]}
          />
          <Tabs value={tab} onChange={onTab} keepMounted={false}>
            <Tabs.List aria-label={T.tabsLabel}>
              <Tabs.Tab value="run-results">{T.runResults}</Tabs.Tab>
              <Tabs.Tab value="activity-log">{T.activityLog}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="run-results" pt="md">
              <PolicyRuns zoneId={zoneId} policyId={policy.policy_id} />
            </Tabs.Panel>
            <Tabs.Panel value="activity-log" pt="md">
              <RunEvents events={result.data.events} />
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </Stack>
  );
}
