import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { WebhooksPage } from './WebhooksPage';

const acme = buildZone({ id: 1, name: 'Acme' });
const SECRET = `whsec_${'Q1w2E3r4T5'.repeat(4)}abc`;

type Hook = {
  id: number;
  url: string;
  event_types: string[];
  enabled: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};
let hooks: Hook[] = [];
let server: Awaited<ReturnType<typeof startTestServer>>;
const delivery = {
  id: 7,
  webhook_id: 1,
  event_type: 'ping',
  status: 'failed',
  attempts: 31,
  next_attempt_at: null,
  retry_until: '2026-03-03T10:00:00Z',
  last_status_code: 503,
  last_error: 'The endpoint answered HTTP 503.',
  response_excerpt: 'busy',
  duration_ms: 12,
  payload: {},
  created_at: '2026-03-02T10:00:00Z',
  last_attempt_at: '2026-03-03T09:40:00Z',
  delivered_at: null,
};

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/webhooks': () => ({ body: { data: hooks, size: hooks.length } }),
    'POST /api/webhooks': (req) => {
      const body = JSON.parse(req.body) as { url: string; event_types: string[]; enabled: boolean };
      const hook: Hook = {
        id: hooks.length + 1,
        ...body,
        created_by: 'ada@example.test',
        created_at: '2026-03-02T10:00:00Z',
        updated_at: '2026-03-02T10:00:00Z',
      };
      hooks = [...hooks, hook];
      return { status: 201, body: { ...hook, secret: SECRET } };
    },
    'GET /api/webhooks/1/deliveries': () => ({ body: { data: [delivery], size: 1 } }),
    'POST /api/webhooks/1/deliveries/7/redeliver': () => ({
      status: 202,
      body: { ...delivery, status: 'pending', attempts: 0, next_attempt_at: '2026-03-03T10:00:00Z' },
    }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  hooks = [];
});

function renderPage() {
  return renderInShell([{ path: '/settings/webhooks', element: <WebhooksPage /> }], '/settings/webhooks?o=1', {
    profile: buildProfile({ orgs: [acme] }),
  });
}

describe('Webhooks settings', () => {
  it('creates a webhook with chosen events and shows its secret once', async () => {
    renderPage();
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    // No event chosen: the shared schema's message, and nothing is sent.
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^URL/ }), 'https://hooks.example.test/in');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Webhook' }));
    expect(await within(dialog).findByText('Choose at least one event.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Patch failed' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Policy run finished' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Webhook' }));
    expect(await within(dialog).findByDisplayValue(SECRET)).toBeInTheDocument();
    // The dialog now names what it shows.
    expect(screen.getByRole('dialog', { name: 'Signing secret' })).toBe(dialog);
    expect(within(dialog).getByText('Copy the signing secret now: it will not be shown again.')).toBeInTheDocument();
    const sent = JSON.parse(server.requests.find((r) => r.method === 'POST')!.body);
    expect(sent).toEqual({
      url: 'https://hooks.example.test/in',
      event_types: ['patch.failed', 'run.finished'],
      enabled: true,
    });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    expect(await within(table).findByText('https://hooks.example.test/in')).toBeInTheDocument();
    expect(within(table).getByText('Patch failed, Policy run finished')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).not.toBeInTheDocument();
  });

  it('shows the delivery log with status, attempts and response, and redelivers one', async () => {
    hooks = [
      {
        id: 1,
        url: 'https://hooks.example.test/in',
        event_types: ['run.finished'],
        enabled: true,
        created_by: null,
        created_at: '2026-03-02T10:00:00Z',
        updated_at: '2026-03-02T10:00:00Z',
      },
    ];
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Deliveries' }));
    const log = await screen.findByRole('table', { name: 'Delivery log' });
    expect(await within(log).findByText('failed')).toBeInTheDocument();
    expect(within(log).getByText('31')).toBeInTheDocument();
    expect(within(log).getByText('503')).toBeInTheDocument();
    expect(within(log).getByText('The endpoint answered HTTP 503.')).toBeInTheDocument();
    await userEvent.click(within(log).getByRole('button', { name: 'Redeliver: #7' }));
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/api/webhooks/1/deliveries/7/redeliver')).toBe(true),
    );
  });
});
