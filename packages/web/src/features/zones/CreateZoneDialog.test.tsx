import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import { renderAt } from '../../test/render';
import { startTestServer } from '../../test/server';
import { CreateZoneDialog } from './CreateZoneDialog';

let server: Awaited<ReturnType<typeof startTestServer>>;
const creations = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/orgs');

const zone = (id: number, name: string) => ({
  id,
  zone_id: `zone-${id}`,
  name,
  parent_id: 1,
  plan: 'tier3',
  trial_end_time: null,
  trial_expired: false,
  disabled: false,
  create_time: '2026-01-01T00:00:00Z',
  user_count: 1,
  role_name: 'Zone Administrator',
});

beforeAll(async () => {
  server = await startTestServer({
    'POST /api/orgs': (req) => {
      const { name } = JSON.parse(req.body) as { name: string };
      if (name.toLowerCase() === 'taken') {
        return {
          status: 409,
          body: { code: 'zones.name_taken', errors: { name: ['A zone with this name already exists'] } },
        };
      }
      if (name === 'Too many') {
        return { status: 403, body: { code: 'zones.limit', errors: ['Maximum zones reached.', 'Contact support.'] } };
      }
      return { status: 201, body: zone(42, name) };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

function renderDialog() {
  const onCreated = vi.fn();
  const onClose = vi.fn();
  renderAt(<CreateZoneDialog opened zoneId={1} onClose={onClose} onCreated={onCreated} />);
  return { onCreated, onClose };
}

const nameField = () => screen.getByRole('textbox', { name: /Zone name/ });
const createButton = () => screen.getByRole('button', { name: 'Create Zone' });

describe('create-zone dialog', () => {
  it('keeps Create Zone disabled while the name is missing and says so', async () => {
    renderDialog();
    expect(await screen.findByRole('dialog', { name: 'Create New Zone' })).toBeInTheDocument();
    await waitFor(() => expect(createButton()).toBeDisabled());
    await userEvent.type(nameField(), 'East');
    await waitFor(() => expect(createButton()).toBeEnabled());
    await userEvent.clear(nameField());
    expect(await screen.findByText('Zone name is required.')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    await userEvent.type(nameField(), '   ');
    expect(createButton()).toBeDisabled();
    expect(creations()).toHaveLength(0);
  });

  it("shows 'A zone with this name already exists' on the field for a taken name", async () => {
    const { onCreated } = renderDialog();
    await userEvent.type(nameField(), 'Taken');
    await userEvent.click(createButton());
    expect(await screen.findByText('A zone with this name already exists')).toBeInTheDocument();
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('Error: A zone with this name already exists')).toBeInTheDocument();
    expect(createButton()).toBeDisabled();
    expect(onCreated).not.toHaveBeenCalled();
    await userEvent.type(nameField(), ' 2');
    await waitFor(() => expect(createButton()).toBeEnabled());
  });

  it('creates the zone beside the current one and reports success', async () => {
    const { onCreated } = renderDialog();
    await userEvent.type(nameField(), '  West  ');
    await userEvent.click(createButton());
    expect(await screen.findByText('Success: Your new zone has been created.')).toBeInTheDocument();
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 42, name: 'West' })));
    const sent = creations().at(-1)!;
    expect(sent.query.get('o')).toBe('1');
    expect(JSON.parse(sent.body)).toEqual({ name: 'West' });
  });

  it("shows 'Error: ' and the first server message when creation fails", async () => {
    renderDialog();
    await userEvent.type(nameField(), 'Too many');
    await userEvent.click(createButton());
    expect(await screen.findByText('Error: Maximum zones reached.')).toBeInTheDocument();
  });
});
