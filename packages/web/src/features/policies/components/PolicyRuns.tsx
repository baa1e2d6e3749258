import { executionBanner, type PolicyResultStatus } from '@patchwell/core/policies/policy-runs.schema';
import { Anchor, Badge, Button, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { PagedQueryTable, usePaging } from '../../../ui/PagedQueryTable';
import { usePolicyRuns, useRunResults } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';
import type {
  PolicyResultDetail,
  PolicyRunDetailLenient as PolicyRunDetail,
} from '@patchwell/core/policies/policy-responses.schema';

const RESULT_COLOR: Record<PolicyResultStatus, string> = {
  success: 'green',
  in_progress: 'blue',
  error: 'red',
  pending: 'gray',
  timed_out: 'orange',
  canceled: 'gray',
};

/** A result's status; a dry run (the agent without --allow-changes) says so beside it. */
export function ResultBadge({ status, isSimulated = false }: { status: PolicyResultStatus; isSimulated?: boolean }) {
  const badge = (
    <Badge color={RESULT_COLOR[status]} variant="light">
      {CONSOLE_TEXTS.commandStatus[status] ?? status}
    </Badge>
  );
  if (!isSimulated) return badge;
  return (
    <Group gap={4} wrap="nowrap">
      {badge}
      <Badge color="gray" variant="outline">
        {T.simulated}
      </Badge>
    </Group>
  );
}

/** A result's output: stdout, then stderr, then the engine's message. */
export function ResultOutput({
  result,
}: {
  result: Pick<PolicyResultDetail, 'stdout_tail' | 'stderr_tail' | 'message'>;
}) {
  const text = [result.stdout_tail, result.stderr_tail, result.message].filter(Boolean).join('\n');
  return text ? (
    <Code block style={{ whiteSpace: 'pre-wrap', maxHeight: '20rem', overflow: 'auto' }}>
      {text}
    </Code>
  ) : (
    <Text size="sm" c="dimmed">
      {T.noOutput}
    </Text>
  );
}

const RESULT_COLUMNS = [
  { key: 'device', header: T.device },
  { key: 'status', header: T.status },
  { key: 'exit', header: T.exitCode },
  { key: 'finished', header: T.finished },
  { key: 'output', header: T.output },
] as const;

function RunResults({ zoneId, policyId, run }: { zoneId: number; policyId: number; run: PolicyRunDetail }) {
  const paging = usePaging();
  const [shown, setShown] = useState<PolicyResultDetail | null>(null);
  const results = useRunResults(zoneId, policyId, run.id, paging.apiQuery);
  return (
    <>
      <PagedQueryTable
        label={T.results}
        query={results}
        paging={paging}
        columns={RESULT_COLUMNS}
        rowKey={(r) => r.id}
        empty={T.noResults}
        renderCells={(r) => (
          <>
            <Table.Td>{r.server_name}</Table.Td>
            <Table.Td>
              <ResultBadge status={r.status} isSimulated={r.simulated} />
            </Table.Td>
            <Table.Td>{r.exit_code ?? '—'}</Table.Td>
            <Table.Td>{formatUtc(r.finished_at)}</Table.Td>
            <Table.Td>
              <Anchor component="button" type="button" size="sm" onClick={() => setShown(r)}>
                {T.showOutput(r.server_name)}
              </Anchor>
            </Table.Td>
          </>
        )}
      />
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={shown ? T.showOutput(shown.server_name) : ''}
        size="lg"
      >
        {shown && <ResultOutput result={shown} />}
      </Modal>
    </>
  );
}

const RUN_COLUMNS = [
  { key: 'started', header: T.runStarted2 },
  { key: 'trigger', header: T.trigger },
  { key: 'status', header: T.status },
  { key: 'devices', header: T.devices },
  { key: 'results', header: T.results },
] as const;

/** A policy's runs of the last 30 days; choosing one lists its per-device results with output. */
export function PolicyRuns({ zoneId, policyId }: { zoneId: number; policyId: number }) {
  const paging = usePaging();
  const [openRun, setOpenRun] = useState<PolicyRunDetail | null>(null);
  const runs = usePolicyRuns(zoneId, policyId, paging.apiQuery);
  return (
    <Stack gap="md">
      <Title order={2} fz="h4">
        {T.runs}
      </Title>
      <PagedQueryTable
        label={T.runs}
        query={runs}
        paging={paging}
        columns={RUN_COLUMNS}
        rowKey={(r) => r.id}
        empty={T.noRuns}
        renderCells={(r) => (
          <>
            <Table.Td>{formatUtc(r.create_time)}</Table.Td>
            <Table.Td>{T.triggers[r.trigger] ?? r.trigger}</Table.Td>
            <Table.Td>{executionBanner(r.status, r.error_code).text}</Table.Td>
            <Table.Td>
              <Text size="sm">{r.device_count}</Text>
              <Text size="xs" c="dimmed">
                {Object.entries(r.results)
                  .filter(([, n]) => n > 0)
                  .map(([s, n]) => `${n} ${CONSOLE_TEXTS.commandStatus[s]?.toLowerCase() ?? s}`)
                  .join(', ')}
              </Text>
            </Table.Td>
            <Table.Td>
              <Button variant="subtle" size="xs" onClick={() => setOpenRun(r)}>
                {T.viewResults}
              </Button>
            </Table.Td>
          </>
        )}
      />
      {openRun && (
        <Stack gap="sm" role="region" aria-label={T.resultsTitle(formatUtc(openRun.create_time))}>
          <Title order={3} fz="h5">
            {T.resultsTitle(formatUtc(openRun.create_time))}
          </Title>
          <RunResults key={openRun.id} zoneId={zoneId} policyId={policyId} run={openRun} />
        </Stack>
      )}
    </Stack>
  );
}
