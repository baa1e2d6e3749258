import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { buildProfile, buildZone } from '../../test/factories';
import { renderInShell } from '../../test/render';
import { startTestServer } from '../../test/server';
import { ProfilePage } from './ProfilePage';

let server: Awaited<ReturnType<typeof startTestServer>>;
const updates = () => server.requests.filter((r) => r.method === 'PUT' && r.path === '/api/users/7');

beforeAll(async () => {
  server = await startTestServer({
    'GET /api/users/self': () => ({ body: buildProfile() }),
    'PUT /api/users/7': (req) => {
      const body = JSON.parse(req.body) as { password?: string };
      if (body.password === 'wrong') {
        return { status: 400, body: { errors: { password: ['The current password is not correct.'] } } };
      }
      return { body: {} };
    },
  });
  api.configure({ baseUrl: server.url });
});

afterAll(async () => {
  api.configure({ baseUrl: undefined });
  await server.close();
});

const renderProfile = (profile = buildProfile()) =>
  renderInShell([{ path: '/settings/profile', element: <ProfilePage /> }], '/settings/profile?o=1', { profile });
const section = (name: string) => screen.getByRole('region', { name });

describe('profile settings', () => {
  it('keeps names under 32 characters and saves names and email', async () => {
    renderProfile();
    const details = await screen.findByRole('region', { name: 'Name and email' });
    const first = within(details).getByRole('textbox', { name: /^First name/ });
    await userEvent.clear(first);
    await userEvent.type(first, 'x'.repeat(32));
    await userEvent.click(within(details).getByRole('button', { name: 'Save' }));
    expect(await within(details).findByText('First name must be under 32 characters.')).toBeInTheDocument();

    await userEvent.clear(first);
    await userEvent.type(first, 'Augusta');
    const email = within(details).getByRole('textbox', { name: /^Email/ });
    await userEvent.clear(email);
    await userEvent.type(email, 'Augusta@Example.com');
    await userEvent.click(within(details).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Success: Your profile has been updated.')).toBeInTheDocument();
    expect(JSON.parse(updates().at(-1)!.body)).toEqual({
      firstname: 'Augusta',
      lastname: 'Lovelace',
      email: 'augusta@example.com',
    });
  });

  it('disables the email while the zone signs in through SAML', async () => {
    const zone = buildZone({ id: 1, name: 'Acme', saml: { enabled: true, redirect: null } });
    renderProfile(buildProfile({ orgs: [zone] }));
    const details = await screen.findByRole('region', { name: 'Name and email' });
    expect(within(details).getByRole('textbox', { name: /^Email/ })).toBeDisabled();
    await userEvent.click(within(details).getByRole('button', { name: 'Save' }));
    await screen.findByText('Success: Your profile has been updated.');
    expect(JSON.parse(updates().at(-1)!.body)).not.toHaveProperty('email');
  });

  it('changes the password with the current, new and repeated password', async () => {
    renderProfile();
    await screen.findByRole('region', { name: 'Password' });
    const form = section('Password');
    const current = within(form).getByLabelText(/^Current password/);
    const next = within(form).getByLabelText(/^New password/);
    const repeat = within(form).getByLabelText(/^Repeat new password/);
    await userEvent.type(current, 'wrong');
    await userEvent.type(next, 'too short');
    await userEvent.type(repeat, 'other');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('Value must be at least 12 characters.')).toBeInTheDocument();
    expect(within(form).getByText('Passwords do not match.')).toBeInTheDocument();

    await userEvent.clear(next);
    await userEvent.type(next, 'a much longer password');
    await userEvent.clear(repeat);
    await userEvent.type(repeat, 'a much longer password');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('The current password is not correct.')).toBeInTheDocument();

    await userEvent.clear(current);
    await userEvent.type(current, 'the old password');
    await userEvent.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Success: Your password has been changed.')).toBeInTheDocument();
    expect(JSON.parse(updates().at(-1)!.body)).toEqual({
      password: 'the old password',
      password1: 'a much longer password',
      password2: 'a much longer password',
    });
    expect(current).toHaveValue('');
  });
});
