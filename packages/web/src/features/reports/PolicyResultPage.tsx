import { Alert, Anchor, Group, Loader, Stack, Tabs, Title } from '@mantine/core';
import { POLICY_TYPE_LABELS } from '@patchwell/core/policies/policies.schema';
import { TEXTS } from '@patchwell/core/texts';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { pathTo, PATHS } from '../../app/paths';
import { useShell } from '../../app/shell-context';
import { withZone } from '../../app/zone';
import { CONSOLE_TEXTS } from '../../texts';
import { FactTable } from '../../ui/FactTable';
import { formatUtc } from '../../ui/format-date';
import { usePageTitle } from '../../ui/usePageTitle';
import { PolicyRuns } from '../policies/components/PolicyRuns';
import { usePolicyResult } from './reports.api';
import { ObjectActivity } from './components/ObjectActivity';
import { REPORTS_TEXTS } from './reports.texts';

const T = REPORTS_TEXTS.policyResults;
const TABS = ['run-results', 'activity-log'] as const;
type Tab = (typeof TABS)[number];

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
      {result.isPending && <Loader size="sm" role="progressbar" aria-label={CONSOLE_TEXTS.loading} />}
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
              <ObjectActivity zoneId={zoneId} object={{ type: 'policy', id: policy.policy_id }} label={T.activityLog} />
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </Stack>
  );
}
