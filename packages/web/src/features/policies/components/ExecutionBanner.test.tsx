import { TEXTS } from '@patchwell/core/texts';
import { screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../api/client';
import { renderAt } from '../../../test/render';
import { startTestServer, type TestReply } from '../../../test/server';
import { buildRun } from '../policies.factories';
import { ExecutionBanner } from './ExecutionBanner';

const replies = new Map<number, TestReply>();
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  const routes: Record<string, () => TestReply> = {};
  const cases: [number, TestReply][] = [
    [1, { body: buildRun({ id: 1, status: 'created' }) }],
    [2, { body: buildRun({ id: 2, status: 'queued' }) }],
    [3, { body: buildRun({ id: 3, status: 'running' }) }],
    [4, { body: buildRun({ id: 4, status: 'completed' }) }],
    [5, { body: buildRun({ id: 5, status: 'error', error_code: 'E_AGENT_OFFLINE' }) }],
    [6, { body: buildRun({ id: 6, status: 'error' }) }],
    [7, { body: buildRun({ id: 7, status: 'timeout' }) }],
    [8, { body: buildRun({ id: 8, status: 'paused' }) }],
    [9, { status: 500, body: { message: 'boom' } }],
  ];
  for (const [id, reply] of cases) {
    replies.set(id, reply);
    routes[`GET /api/policies/1/runs/${id}`] = () => replies.get(id)!;
  }
  server = await startTestServer(routes);
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

describe('execution banner', () => {
  it.each([
    [1, 'The execution was created.', 'informative'],
    [2, 'The execution is queued.', 'in-progress'],
    [3, 'The execution is running.', 'in-progress'],
    [4, 'The execution completed.', 'success'],
    [5, TEXTS.execution.errorCode('E_AGENT_OFFLINE'), 'failed'],
    [6, TEXTS.execution.unknownError, 'failed'],
    [7, TEXTS.execution.timedOut, 'failed'],
    [8, TEXTS.execution.unrecognized('paused'), 'alert'],
    [9, TEXTS.execution.pollingFailed, 'alert'],
  ])('run %i shows “%s”', async (runId, text, kind) => {
    renderAt(<ExecutionBanner zoneId={1} policyId={1} runId={runId} onDismiss={() => undefined} />);
    expect(await screen.findByText(text)).toBeInTheDocument();
    // Before the first answer the banner says 'created' too, as in progress.
    await waitFor(() => expect(screen.getByRole('status')).toHaveAttribute('data-kind', kind));
    expect(screen.getByText(text)).toBeInTheDocument();
  });
});
