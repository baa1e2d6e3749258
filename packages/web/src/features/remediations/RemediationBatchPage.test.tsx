import type { Batch } from '@patchwell/core/remediation/batches.schema';
import { TEXTS } from '@patchwell/core/texts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import {
  buildBatch,
  buildSolution,
  buildTask,
  buildUnknownHost,
  buildVulnerability,
} from '../tasks/remediation.factories';
import { TASK_TEXTS } from '../tasks/tasks.texts';
import { RemediationBatchPage } from './RemediationBatchPage';
import { SolutionsTab } from './batch/SolutionsTab';
import { UnknownHostsTab } from './batch/UnknownHostsTab';
import { VulnerabilitiesTab } from './batch/VulnerabilitiesTab';
import { REMEDIATION_TEXTS as T } from './remediations.texts';

const ready = buildBatch({ id: 40, report_source: 'qualys-nov.csv' });
const state: { batch: Batch } = { batch: ready };
let server: Awaited<ReturnType<typeof startTestServer>>;
const posts = (path: string) => server.requests.filter((r) => r.method === 'POST' && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/orgs/1/tasks/batches/40': () => ({ body: state.batch }),
    'GET /api/orgs/1/tasks/batches/40/vulnerabilities': () => ({
      body: {
        data: [
          buildVulnerability(),
          buildVulnerability({
            cve: 'CVE-2023-4863',
            severity: 'high',
            severity_raw: '4',
            cvss: 8.8,
            title: 'libwebp',
          }),
        ],
        size: 2,
      },
    }),
    'GET /api/orgs/1/tasks/batches/40/solutions': () => ({
      body: {
        data: [
          buildSolution({ id: 1 }),
          buildSolution({
            id: 2,
            kind: 'patch-with-worklet',
            patch_name: null,
            worklet_id: 'disable-smbv1',
            title: 'Disable SMBv1',
            cves: ['CVE-2017-0144'],
            device_count: 1,
          }),
          buildSolution({
            id: 3,
            kind: 'patch-with-worklet',
            patch_name: null,
            worklet_id: null,
            title: 'Broken worklet',
          }),
        ],
        size: 3,
      },
    }),
    'GET /api/orgs/1/tasks/batches/40/unknown-hosts': () => ({
      body: {
        data: [buildUnknownHost(), buildUnknownHost({ hostname: 'ghost-02', os: null, ip_addrs_private: [] })],
        size: 2,
      },
    }),
    'POST /api/orgs/1/tasks/batches/40/accept': () => {
      state.batch = { ...state.batch, status: 'approved' };
      return { body: { batch: state.batch, task_ids: [70, 71, 72] } };
    },
    'GET /api/orgs/1/tasks': () => ({
      body: { data: [buildTask({ id: 70, title: 'Install xz-utils', batch_id: 40 })], size: 1 },
    }),
    'GET /api/info': () => ({
      body: {
        server_url: 'https://patchwell.example',
        access_key: 'zone-key-123',
        install: { linux: 'linux-install-cmd', mac: 'mac-install-cmd', windows: 'windows-install-cmd' },
      },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  state.batch = ready;
});

const routes = [
  {
    path: '/manage/remediations/:batchId',
    element: <RemediationBatchPage />,
    children: [
      { index: true, element: <VulnerabilitiesTab /> },
      { path: 'solutions', element: <SolutionsTab /> },
      { path: 'unknown-devices', element: <UnknownHostsTab /> },
    ],
  },
];
const open = (entry: string) => renderInShell(routes, entry, { profile: buildProfile() });

describe('remediation batch', () => {
  it('offers vulnerabilities, solutions and Unknown Hosts as tabs, and lists the CVEs with the scanner’s severity', async () => {
    open('/manage/remediations/40?o=1');
    const tabs = await screen.findByRole('navigation', { name: T.tabs }, { timeout: 10_000 });
    expect(within(tabs).getByRole('link', { name: T.tabVulnerabilities })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: T.tabSolutions })).toHaveAttribute(
      'href',
      '/manage/remediations/40/solutions?o=1',
    );
    expect(within(tabs).getByRole('link', { name: TEXTS.remediation.unknownHosts })).toHaveAttribute(
      'href',
      '/manage/remediations/40/unknown-devices?o=1',
    );
    const table = await screen.findByRole('table', { name: T.vulnerabilitiesLabel });
    const webp = within(table).getByRole('row', { name: /CVE-2023-4863/ });
    expect(webp).toHaveTextContent('High');
    expect(webp).toHaveTextContent(T.scannerSeverity('4', 8.8));
    expect(within(table).getByRole('link', { name: 'CVE-2024-3094' })).toHaveAttribute(
      'href',
      '/manage/remediations/cves/CVE-2024-3094?o=1',
    );
    // The review is on the solutions tab, not in the header.
    expect(screen.queryByRole('button', { name: TASK_TEXTS.accept })).not.toBeInTheDocument();
  });

  it('shows each solution as patch now or patch with worklet, and a worklet without an id as an error', async () => {
    open('/manage/remediations/40/solutions?o=1');
    const table = await screen.findByRole('table', { name: T.solutionsLabel }, { timeout: 10_000 });
    const patch = within(table).getByRole('row', { name: /xz-utils/ });
    expect(patch).toHaveTextContent(TASK_TEXTS.kinds['patch-now']!);
    expect(patch).toHaveTextContent(T.patchNowHelp);
    const worklet = within(table).getByRole('row', { name: /Disable SMBv1/ });
    expect(worklet).toHaveTextContent(TASK_TEXTS.kinds['patch-with-worklet']!);
    expect(worklet).toHaveTextContent('disable-smbv1');
    const broken = within(table).getByRole('row', { name: /Broken worklet/ });
    expect(within(broken).getByRole('alert')).toHaveTextContent(TEXTS.remediationTasks.workletInvalid);
  });

  it('accepts the batch from the solutions tab, which creates its tasks, then lists them', async () => {
    open('/manage/remediations/40/solutions?o=1');
    expect(await screen.findByText(T.acceptHint, {}, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: TASK_TEXTS.accept }));
    const dialog = await screen.findByRole('dialog', { name: TASK_TEXTS.acceptTitle });
    await userEvent.click(within(dialog).getByRole('button', { name: TASK_TEXTS.accept }));
    expect(await screen.findByText(TASK_TEXTS.accepted(3))).toBeInTheDocument();
    expect(posts('/api/orgs/1/tasks/batches/40/accept')).toHaveLength(1);
    const tasks = await screen.findByRole('table', { name: TASK_TEXTS.batchTasks });
    expect(within(tasks).getByRole('link', { name: 'Install xz-utils' })).toHaveAttribute(
      'href',
      '/manage/tasks/tasks/70?o=1',
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: TASK_TEXTS.accept })).not.toBeInTheDocument());
  });

  it('lists the Unknown Hosts and offers the agent install instructions for them', async () => {
    open('/manage/remediations/40/unknown-devices?o=1');
    expect(
      await screen.findByRole('heading', { name: TEXTS.remediation.unknownHosts }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: T.unknownLabel });
    expect(within(table).getByRole('row', { name: /ghost-01/ })).toHaveTextContent('10.9.9.9');
    expect(within(table).getByRole('row', { name: /ghost-01/ })).toHaveTextContent('Windows Server 2019');
    await userEvent.click(screen.getByRole('button', { name: T.installAgent }));
    const dialog = await screen.findByRole('dialog', { name: CONSOLE_TEXTS.devices.manualTitle });
    expect(await within(dialog).findByText('windows-install-cmd')).toBeInTheDocument();
    expect(within(dialog).getByDisplayValue('zone-key-123')).toBeInTheDocument();
  });

  it('waits for a building batch before asking for its children', async () => {
    state.batch = buildBatch({ id: 40, status: 'building', statistics: null });
    open('/manage/remediations/40?o=1');
    expect(await screen.findByText(TASK_TEXTS.building, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(server.requests.some((r) => r.path.endsWith('/vulnerabilities'))).toBe(false);
  });
});
