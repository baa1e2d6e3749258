import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { CONSOLE_TEXTS } from '../../texts';
import { buildGroup, buildProfile } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { CreateGroupPage, GroupEditorPage } from './GroupEditorPage';
import { GroupsPage } from './GroupsPage';

const T = CONSOLE_TEXTS.groups;
const defaultGroup = buildGroup({ id: 1, name: 'Main', default: true, server_count: 12 });
const servers = buildGroup({ id: 5, name: 'Servers', server_count: 3, checkin_interval_s: 300, notes: 'Racks' });

let server: Awaited<ReturnType<typeof startTestServer>>;
const calls = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/servergroups': () => ({ body: [defaultGroup, servers] }),
    'GET /api/servergroups/1': () => ({ body: defaultGroup }),
    'GET /api/servergroups/5': () => ({ body: servers }),
    'POST /api/servergroups': (req) => {
      const body = JSON.parse(req.body) as { name: string };
      if (body.name === 'Servers') return { status: 409, body: { errors: { name: ['This name is already taken.'] } } };
      return { status: 201, body: buildGroup({ id: 9, name: body.name }) };
    },
    'GET /api/servergroups/9': () => ({ body: buildGroup({ id: 9, name: 'Laptops' }) }),
    'PUT /api/servergroups/5': () => ({ body: servers }),
    'DELETE /api/servergroups/5': () => ({ status: 204 }),
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
});

const routes = [
  { path: '/manage/groups', element: <GroupsPage /> },
  { path: '/manage/groups/create-group', element: <CreateGroupPage /> },
  { path: '/manage/groups/:groupId', element: <GroupEditorPage /> },
];
const renderAt = (entry: string, profile = buildProfile()) => renderInShell(routes, entry, { profile });

describe('group form', () => {
  it('requires a name and a check-in interval within bounds', async () => {
    renderAt('/manage/groups/create-group?o=1');
    const form = await screen.findByRole('form', { name: T.createTitle }, { timeout: 4000 });
    const interval = within(form).getByRole('textbox', { name: new RegExp(T.interval.replace(/[()]/g, '\\$&')) });
    await userEvent.clear(interval);
    await userEvent.type(interval, '5');
    await userEvent.click(within(form).getByRole('button', { name: T.create }));
    expect(await within(form).findByText('Group name is required.')).toBeInTheDocument();
    expect(within(form).getByText('Value must be a number between 10 and 86400.')).toBeInTheDocument();
    expect(calls('POST', '/api/servergroups')).toHaveLength(0);
  });

  it('shows the server’s name error, then creates the group with the zone as organization_id', async () => {
    const { router } = renderAt('/manage/groups/create-group?o=1');
    const form = await screen.findByRole('form', { name: T.createTitle }, { timeout: 4000 });
    await userEvent.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Servers');
    await userEvent.click(within(form).getByRole('button', { name: T.create }));
    expect(await within(form).findByText('This name is already taken.')).toBeInTheDocument();

    const name = within(form).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Laptops');
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: T.parent }), 'Servers');
    await userEvent.type(within(form).getByRole('textbox', { name: T.notes }), 'Field staff');
    await userEvent.click(within(form).getByRole('button', { name: T.create }));
    expect(await screen.findByText(T.created('Laptops'))).toBeInTheDocument();
    const post = calls('POST', '/api/servergroups').at(-1)!;
    expect(post.query.get('o')).toBe('1');
    expect(JSON.parse(post.body)).toEqual({
      name: 'Laptops',
      organization_id: 1,
      parent_server_group_id: 5,
      checkin_interval_s: 60,
      notes: 'Field staff',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/groups/9'));
  });

  it('edits a group and deletes it after the confirmation', async () => {
    const { router } = renderAt('/manage/groups/5?o=1');
    const form = await screen.findByRole('form', { name: T.editTitle }, { timeout: 4000 });
    expect(screen.getByRole('link', { name: T.deviceCount(3) })).toHaveAttribute('href', '/devices?o=1&group=5');
    expect(within(form).getByRole('textbox', { name: T.notes })).toHaveValue('Racks');
    await userEvent.click(within(form).getByRole('button', { name: T.delete }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle });
    expect(within(dialog).getByText(T.deleteBody('Servers', 3))).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: T.delete }));
    await waitFor(() => expect(calls('DELETE', '/api/servergroups/5')).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/groups'));
  });

  it('never offers to delete the default group, and is read-only without ServerGroup.modify', async () => {
    const first = renderAt('/manage/groups/1?o=1');
    const form = await screen.findByRole('form', { name: T.editTitle }, { timeout: 4000 });
    expect(within(form).queryByRole('button', { name: T.delete })).not.toBeInTheDocument();
    expect(within(form).getByText(T.defaultNotDeletable)).toBeInTheDocument();
    first.unmount();

    renderAt('/manage/groups/5?o=1', buildProfile({ permissions: { '1': ['ServerGroup.read'] } }));
    const readOnly = await screen.findByRole('form', { name: T.editTitle }, { timeout: 4000 });
    expect(within(readOnly).getByRole('textbox', { name: /^Name/ })).toBeDisabled();
    expect(within(readOnly).queryByRole('button', { name: T.save })).not.toBeInTheDocument();
  });
});

describe('group list', () => {
  it('lists groups with device counts linking to the filtered devices', async () => {
    renderAt('/manage/groups?o=1');
    const table = await screen.findByRole('table', { name: T.tableLabel }, { timeout: 4000 });
    expect(within(table).getByText(T.default)).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: T.deviceCount(12) })).toHaveAttribute(
      'href',
      '/devices?o=1&group=1',
    );
    expect(screen.getByRole('link', { name: T.create })).toHaveAttribute('href', '/manage/groups/create-group?o=1');
  });
});
