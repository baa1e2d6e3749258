import { PAGE_SIZE_DEFAULT } from '@patchwell/core/constants';
import { executionBanner, type PolicyResultStatus } from '@patchwell/core/policies/policy-runs.schema';
import { Anchor, Badge, Button, Code, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CONSOLE_TEXTS } from '../../../texts';
import { formatUtc } from '../../../ui/format-date';
import { TablePager } from '../../../ui/table/TablePager';
import { usePolicyRuns, useRunResults } from '../policies.api';
import { POLICY_TEXTS as T } from '../policies.texts';
import type { PolicyResultDetail } from '@patchwell/core/policies/policy-responses.schema';
import type { PolicyRunDetail } from '../policies.types';

const RESULT_COLOR: Record<PolicyResultStatus, string> = {
  success: 'green',
  in_progress: 'blue',
  error: 'red',
  pending: 'gray',
  timed_out: 'orange',
  canceled: 'gray',
};

export function ResultBadge({ status }: { status: PolicyResultStatus }) {
  return (
    <Badge color={RESULT_COLOR[status]} variant="light">
      {CONSOLE_TEXTS.commandStatus[status] ?? status}
    </Badge>
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

function RunResults({ zoneId, policyId, run }: { zoneId: number; policyId: number; run: PolicyRunDetail }) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(PAGE_SIZE_DEFAULT);
  const [shown, setShown] = useState<PolicyResultDetail | null>(null);
  const results = useRunResults(zoneId, policyId, run.id, { page: page - 1, limit });
  const rows = results.data?.data ?? [];
  return (
    <Stack gap="sm">
      {results.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
      {results.data && rows.length === 0 && <Text size="sm">{T.noResults}</Text>}
      {rows.length > 0 && (
        <Table withTableBorder aria-label={T.results}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{T.device}</Table.Th>
              <Table.Th scope="col">{T.status}</Table.Th>
              <Table.Th scope="col">{T.exitCode}</Table.Th>
              <Table.Th scope="col">{T.finished}</Table.Th>
              <Table.Th scope="col">{T.output}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{r.server_name}</Table.Td>
                <Table.Td>
                  <ResultBadge status={r.status} />
                </Table.Td>
                <Table.Td>{r.exit_code ?? '—'}</Table.Td>
                <Table.Td>{formatUtc(r.finished_at)}</Table.Td>
                <Table.Td>
                  <Anchor component="button" type="button" size="sm" onClick={() => setShown(r)}>
                    {T.showOutput(r.server_name)}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {results.data && results.data.size > limit && (
        <TablePager
          page={page}
          limit={limit}
          total={results.data.size}
          onPage={setPage}
          onLimit={(l) => {
            setLimit(l);
            setPage(1);
          }}
        />
      )}
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={shown ? T.showOutput(shown.server_name) : ''}
        size="lg"
      >
        {shown && <ResultOutput result={shown} />}
      </Modal>
    </Stack>
  );
}

/** A policy's runs of the last 30 days; choosing one lists its per-device results with output. */
export function PolicyRuns({ zoneId, policyId }: { zoneId: number; policyId: number }) {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(PAGE_SIZE_DEFAULT);
  const [openRun, setOpenRun] = useState<PolicyRunDetail | null>(null);
  const runs = usePolicyRuns(zoneId, policyId, { page: page - 1, limit });
  const rows = runs.data?.data ?? [];
  return (
    <Stack gap="md">
      <Title order={2} fz="h4">
        {T.runs}
      </Title>
      {runs.isPending && <Loader size="sm" aria-label={CONSOLE_TEXTS.loading} />}
      {runs.data && rows.length === 0 && <Text size="sm">{T.noRuns}</Text>}
      {rows.length > 0 && (
        <Table withTableBorder highlightOnHover aria-label={T.runs}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{T.runStarted2}</Table.Th>
              <Table.Th scope="col">{T.trigger}</Table.Th>
              <Table.Th scope="col">{T.status}</Table.Th>
              <Table.Th scope="col">{T.devices}</Table.Th>
              <Table.Th scope="col">{T.results}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id}>
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
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {runs.data && runs.data.size > limit && (
        <TablePager
          page={page}
          limit={limit}
          total={runs.data.size}
          onPage={setPage}
          onLimit={(l) => {
            setLimit(l);
            setPage(1);
          }}
        />
      )}
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
